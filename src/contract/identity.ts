/**
 * A vehicle's identity: its registration number, compared as `regKey` reads
 * it (Unicode NFC, zero-width characters dropped, every kind of space one
 * plain space, trimmed, case-insensitive), qualified by the registration
 * country when one is given. A row without a country matches a vehicle with
 * the same number in any country.
 */
export interface Identity {
  reg: string;
  country?: number;
}

/** Zero-width characters (space, joiners, word joiner, BOM, soft hyphen): invisible, so never part of a number. */
const ZERO_WIDTH = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
/** Every kind of space (no-break, thin, figure, ideographic, tabs…) and runs of them. */
const SPACES = /[\s\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/g;

/**
 * The one rule by which two registration numbers are the same: `B-SC 1001`,
 * `b-sc  1001`, `B-SC\u00A01001` and the NFD spelling of a number with
 * accents are one vehicle (import, diff, handles, `--where reg=` and the
 * identity check all compare through here).
 */
export function regKey(raw: unknown): string {
  const s = String(raw);
  // printable ASCII words single-spaced (nearly every number): NFC, zero-width and spacing change nothing
  if (PLAIN_ASCII.test(s)) return s.toLowerCase();
  return tidyReg(s).toLowerCase();
}

/** A registration number as regKey reads it, case kept: NFC, zero-width characters dropped, spaces single and plain, trimmed. */
export function tidyReg(s: string): string {
  if (PLAIN_ASCII.test(s)) return s;
  return s.normalize("NFC").replace(ZERO_WIDTH, "").replace(SPACES, " ").trim();
}

/** Printable ASCII words separated by single spaces, no space at either end. */
const PLAIN_ASCII = /^[\x21-\x7E]+(?: [\x21-\x7E]+)*$/;

export function identityOf(values: Record<string, unknown>): Identity | undefined {
  const raw = values.vehicle_reg_number;
  if (raw === undefined || raw === null) return undefined;
  const reg = regKey(raw);
  if (!reg) return undefined;
  const c = values.vehicle_reg_number_country;
  const country = c === undefined || c === null || c === "" ? undefined : Number(c);
  return { reg, country: Number.isFinite(country) ? country : undefined };
}

export function showIdentity(values: Record<string, unknown>): string {
  return String(values.vehicle_reg_number ?? "").trim();
}

/**
 * Identities seen so far (a file's rows, an account's vehicles), with a value
 * each. Compact, as an import holds one entry per row of the file: per
 * registration number a flat list of (country, value) pairs, no object per
 * entry.
 */
export class IdentityIndex<V> {
  #byReg = new Map<string, Array<number | undefined | V>>();

  get size(): number {
    let n = 0;
    for (const l of this.#byReg.values()) n += l.length / 2;
    return n;
  }

  /** The entries that the identity matches. */
  find(id: Identity): V[] {
    const list = this.#byReg.get(id.reg);
    const out: V[] = [];
    if (!list) return out;
    for (let i = 0; i < list.length; i += 2) {
      // the same country, or one side without a country
      const country = list[i] as number | undefined;
      if (country === undefined || id.country === undefined || country === id.country) out.push(list[i + 1] as V);
    }
    return out;
  }

  /** The first entry the identity matches (find(id)[0], without the list). */
  first(id: Identity): V | undefined {
    const list = this.#byReg.get(id.reg);
    if (!list) return undefined;
    for (let i = 0; i < list.length; i += 2) {
      const country = list[i] as number | undefined;
      if (country === undefined || id.country === undefined || country === id.country) return list[i + 1] as V;
    }
    return undefined;
  }

  add(id: Identity, value: V): void {
    const list = this.#byReg.get(id.reg);
    if (list) list.push(id.country, value);
    else this.#byReg.set(id.reg, [id.country, value]);
  }
}
