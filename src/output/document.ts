import type { ChalkInstance } from "chalk";
import type { Json, JsonObject } from "../contract/records.js";
import { type CardRow, renderCard } from "./card.js";
import type { Column, Namer } from "./fields.js";
import { renderTable } from "./table.js";

/**
 * A nested document (`catalog setup`, `catalog protection-plans`) as a person
 * reads it: its plain members as one card section ("General", ids by name),
 * then one table per list of items, titled after its member
 * (`registration_countries` -> "Registration countries"). Never 200 dotted
 * keys; json and yaml keep the document as it came.
 */

export interface DocumentOptions {
  color: ChalkInstance;
  width?: number;
  wide?: boolean;
  names?: Namer;
}

const INDENT = "  ";

export function titleOf(key: string): string {
  const words = key.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isObj = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const scalar = (v: Json): string => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

/** An object of plain members on one line: its name first, the rest as `key value`. */
function inline(o: JsonObject): string {
  const name = typeof o.name === "string" ? o.name : undefined;
  const rest = Object.entries(o)
    .filter(([k]) => !(k === "name" && name !== undefined))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${Array.isArray(v) ? v.map(scalar).join(", ") : scalar(v)}`);
  return name ? `${name}${rest.length ? ` (${rest.join(", ")})` : ""}` : rest.join(", ");
}

/** Which field's names an id member of a document stands for (`default_currency_id` is a currency). */
function namedAs(key: string): string | undefined {
  if (/currency_id$/.test(key)) return "vehicle_currency_id";
  if (/locale_id$/.test(key)) return "locale_id";
  if (/segment_id$/.test(key)) return "vehicle_segment_id";
  return undefined;
}

export async function renderDocument(doc: JsonObject, opts: DocumentOptions): Promise<string> {
  const general: CardRow[] = [];
  const lists: Array<[string, JsonObject[]]> = [];
  for (const [k, v] of Object.entries(doc)) {
    if (Array.isArray(v) && v.length && v.every(isObj)) {
      lists.push([k, v as JsonObject[]]);
      continue;
    }
    let value: string;
    let label = titleOf(k);
    if (isObj(v)) value = inline(v);
    else if (Array.isArray(v)) value = v.map(scalar).join(", ");
    else if (v === null) value = "";
    else {
      value = scalar(v);
      const field = namedAs(k);
      const id = typeof v === "number" ? v : undefined;
      if (field && id !== undefined && opts.names) {
        const name = await opts.names.name(field, id, {}).catch(() => undefined);
        if (name) {
          value = `${name} (${id})`;
          label = titleOf(k.replace(/_id$/, ""));
        }
      }
    }
    general.push({ label, value });
  }
  const width = opts.width;
  let out = general.length ? renderCard([{ title: "General", rows: general }], opts) : "";
  for (const [k, items] of lists) {
    const keys: string[] = [];
    for (const i of items) for (const key of Object.keys(i)) if (!keys.includes(key)) keys.push(key);
    const columns: Column[] = keys.map((key) => ({
      key,
      header: key.replace(/_/g, " ").toUpperCase(),
      text: key === "name" || key === "fields" || key === "field",
    }));
    const table = renderTable(items, columns, {
      color: opts.color,
      width: width === undefined ? undefined : width - INDENT.length,
      wide: opts.wide,
    });
    out += `${out ? "\n" : ""}${opts.color.bold(titleOf(k))}\n${table.replace(/^(?=.)/gm, INDENT)}`;
  }
  return out;
}
