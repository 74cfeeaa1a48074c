import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import type { Json, JsonObject } from "../contract/records.js";
import { MONEY_FIELD, RECORD_LABELS, type SectionDecl } from "../contract/sections.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { CardSection } from "./card.js";
import type { Namer } from "./fields.js";

/**
 * A record as card sections (`vehicle get`, `extra get` in the table format):
 * each declared field under its section with its label, ids by name (`#7`
 * when a name is unknown), flags as yes/no, amounts with the currency code.
 * Empty fields are left out unless `allFields`; members the declaration does
 * not know (a server's own) follow under "Other", the record's id and dates
 * under "Record", so the card hides nothing a person could need.
 */

const FLAGS = new Set(
  [...VEHICLE_FIELDS, ...EXTRA_FIELDS]
    .filter((f) => f.type === "flag")
    .map((f) => f.name)
    .concat("is_active"),
);

const isEmpty = (v: Json | undefined) =>
  v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

const asId = (v: Json) =>
  typeof v === "number" && Number.isSafeInteger(v)
    ? v
    : typeof v === "string" && /^\d+$/.test(v.trim())
      ? Number(v)
      : undefined;

const plain = (v: Json): string => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

export interface RecordCardOptions {
  names?: Namer;
  allFields?: boolean;
  /** The record's currency field (`vehicle_currency_id`, `currency_id`): amounts carry its code. */
  currencyKey: string;
}

export async function recordCard(
  record: JsonObject,
  sections: readonly SectionDecl[],
  opts: RecordCardOptions,
): Promise<CardSection[]> {
  const { names } = opts;
  const name = async (field: string, id: number) => (names ? await names.name(field, id, record) : undefined);
  const cur = record[opts.currencyKey];
  const curId = cur === undefined || cur === null ? undefined : asId(cur);
  const code = curId !== undefined ? await name(opts.currencyKey, curId) : undefined;

  const show = async (field: string, v: Json): Promise<string> => {
    const list = Array.isArray(v) ? v : [v];
    if (FLAGS.has(field) && !Array.isArray(v)) {
      if (v === 1 || v === "1" || v === true) return "yes";
      if (v === 0 || v === "0" || v === false) return "no";
    }
    if (field === "vehicle_images")
      return `${list.length} image${list.length === 1 ? "" : "s"} (ids ${list.map(plain).join(", ")})`;
    if (field === "vehicle_availability_calendar" && typeof v === "string")
      return v
        .split(",")
        .map((d) => d.trim())
        .join(", ");
    if (names?.names(field)) {
      const out: string[] = [];
      for (const x of list) {
        const id = asId(x);
        out.push(id === undefined ? plain(x) : ((await name(field, id)) ?? `#${id}`));
      }
      return out.join(", ");
    }
    if (MONEY_FIELD.test(field) && code) return list.map((x) => `${plain(x)} ${code}`).join(", ");
    return list.map(plain).join(", ");
  };

  const out: CardSection[] = [];
  const seen = new Set<string>();
  for (const s of sections) {
    const rows = [];
    for (const [field, label] of s.fields) {
      seen.add(field);
      const v = record[field];
      if (isEmpty(v) && !opts.allFields) continue;
      rows.push({ label, value: isEmpty(v) ? "" : await show(field, v!) });
    }
    out.push({ title: s.title, rows });
  }
  const other = [];
  const own = [];
  // a server's own name of a field the card already shows by name (option_name beside option_id): not again
  const namedAbove = (k: string) =>
    k.endsWith("_name") && seen.has(`${k.slice(0, -5)}_id`) && !!names?.names(`${k.slice(0, -5)}_id`);
  for (const [k, v] of Object.entries(record)) {
    if (seen.has(k) || k === "locale_id" || (namedAbove(k) && !opts.allFields)) continue;
    if (isEmpty(v) && !opts.allFields) continue;
    if (k in RECORD_LABELS) own.push({ label: RECORD_LABELS[k]!, value: isEmpty(v) ? "" : plain(v) });
    else other.push({ label: k, value: isEmpty(v) ? "" : plain(v) });
  }
  out.push({ title: "Other", rows: other }, { title: "Record", rows: own });
  return out;
}
