import { isObject, type JsonObject } from "../contract/records.js";

/**
 * Catalog items' fields are not shown by the contract beyond being objects:
 * an item's id is `id` (else the first `*_id` member), its names are `name`,
 * `title`, `label`, `value`, `code`, `symbol` (in that order). Decided here
 * for every catalog and every user of catalogs.
 */

export function itemId(item: JsonObject): number | undefined {
  const candidates = [
    item.id,
    ...Object.entries(item)
      .filter(([k]) => k.endsWith("_id"))
      .map(([, v]) => v),
  ];
  for (const v of candidates) {
    if (typeof v === "number" && Number.isSafeInteger(v)) return v;
    if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  }
  return undefined;
}

export function itemNames(item: JsonObject): string[] {
  const names: string[] = [];
  for (const k of ["name", "title", "label", "value", "code", "symbol"]) {
    const v = item[k];
    if (typeof v === "string" && v.trim()) names.push(v.trim());
  }
  return names;
}

export function itemLabel(item: JsonObject): string {
  return itemNames(item)[0] ?? JSON.stringify(item);
}

/** "Name (code)" from an item's first two distinct names, e.g. "Euro (EUR)", "Germany (DE)". */
export function labelOf(item: JsonObject): string {
  const names = [...new Set(itemNames(item))];
  if (names.length === 0) {
    const year = item.year;
    return typeof year === "number" || typeof year === "string" ? String(year) : JSON.stringify(item);
  }
  return names.length > 1 ? `${names[0]} (${names[1]})` : names[0]!;
}

/** A catalog item with its id and a label for people. */
export interface Item {
  id: number;
  label: string;
  raw: JsonObject;
}

export function toItems(list: unknown): Item[] {
  if (!Array.isArray(list)) return [];
  const out: Item[] = [];
  const seen = new Set<number>();
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const id = itemId(raw);
    if (id === undefined || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, label: labelOf(raw), raw });
  }
  return out;
}

/**
 * Find an array of catalog items in a flexible body whose shape the contract
 * does not show: the first array of objects carrying ids under a key that
 * matches `key`, looked for breadth-first a few levels deep (`data`, …).
 */
export function findItems(body: unknown, key: RegExp, depth = 3): Item[] | undefined {
  let level: unknown[] = [body];
  for (let d = 0; d <= depth && level.length; d++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (!isObject(node)) continue;
      for (const [k, v] of Object.entries(node)) {
        if (Array.isArray(v) && key.test(k)) {
          const items = toItems(v);
          if (items.length) return items;
        } else if (isObject(v)) next.push(v);
      }
    }
    level = next;
  }
  return undefined;
}
