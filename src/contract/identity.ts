/**
 * A vehicle's identity: its registration number, trimmed and compared
 * case-insensitively (inner spaces kept), qualified by the registration
 * country when one is given. A row without a country matches a vehicle with
 * the same number in any country.
 */
export interface Identity {
  reg: string;
  country?: number;
}

export function identityOf(values: Record<string, unknown>): Identity | undefined {
  const raw = values.vehicle_reg_number;
  if (raw === undefined || raw === null) return undefined;
  const reg = String(raw).trim().toLowerCase();
  if (!reg) return undefined;
  const c = values.vehicle_reg_number_country;
  const country = c === undefined || c === null || c === "" ? undefined : Number(c);
  return { reg, country: Number.isFinite(country) ? country : undefined };
}

export function showIdentity(values: Record<string, unknown>): string {
  return String(values.vehicle_reg_number ?? "").trim();
}

function sameCountry(a: Identity, b: Identity): boolean {
  return a.country === undefined || b.country === undefined || a.country === b.country;
}

/** Identities seen so far (a file's rows, an account's vehicles), with a value each. */
export class IdentityIndex<V> {
  #byReg = new Map<string, Array<{ id: Identity; value: V }>>();

  get size(): number {
    let n = 0;
    for (const l of this.#byReg.values()) n += l.length;
    return n;
  }

  /** The entries that the identity matches. */
  find(id: Identity): V[] {
    return (this.#byReg.get(id.reg) ?? []).filter((e) => sameCountry(e.id, id)).map((e) => e.value);
  }

  add(id: Identity, value: V): void {
    const list = this.#byReg.get(id.reg);
    if (list) list.push({ id, value });
    else this.#byReg.set(id.reg, [{ id, value }]);
  }
}
