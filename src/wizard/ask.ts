import { InputError, InterruptedError, RentctlError } from "../base/errors.js";
import { checkFiles } from "../commands/image/upload.js";
import { humanToWire } from "../contract/human.js";
import { DEFAULT_SEGMENT } from "../contract/operations.js";
import type { ParamSpec } from "../contract/types.js";
import { coerce, isEmpty } from "../contract/validate.js";
import { VEHICLE_FIELD_BY_NAME } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";
import { RegistrationTakenError, refuseTakenRegistration } from "../ops/vehicle/registration.js";
import type { Item, WizardCatalogs } from "./catalogs.js";
import type { Choice, WizardPrompts } from "./prompts.js";

/** What the wizard has gathered: wire fields, plus the steps on the way that are not fields. */
export interface WizardState {
  /** Wire name → value, as the flags and `--from-file` would give it. */
  answers: Record<string, unknown>;
  /** Brand and model picked on the way to a configuration (not sent; defaults when a section is edited). */
  aux: { brand_id?: number; model_id?: number };
  /** Image files to upload after the confirmation. */
  imageFiles: string[];
}

/** Typed to clear an optional value that has a default. */
export const CLEAR = "-";

const WHOLE = /^[+-]?\d+$/;

export function toInts(v: unknown): number[] {
  const items = Array.isArray(v) ? v : isEmpty(v) ? [] : [v];
  return items
    .map((x) => (typeof x === "number" ? x : typeof x === "string" && WHOLE.test(x.trim()) ? Number(x.trim()) : NaN))
    .filter((n) => Number.isSafeInteger(n));
}

export function toStrings(v: unknown): string[] {
  const items = Array.isArray(v) ? v : isEmpty(v) ? [] : [v];
  return items.map((x) => String(x));
}

function toInt(v: unknown): number | undefined {
  return toInts(Array.isArray(v) ? v.slice(0, 1) : v)[0];
}

export interface AskOptions {
  /** Demand an answer (default: the contract says required). */
  required?: boolean;
  /** Suggested when there is no current value. */
  default?: number | string;
  /** A further check of an answer the contract accepts (e.g. a registration number the account has). */
  also?: (text: string) => Promise<true | string>;
}

export interface PickOptions extends AskOptions {
  /** Use the searchable prompt (default: when there are more than 15 items). */
  search?: boolean;
  /** Label of the choice that leaves an optional field empty. */
  noneLabel?: string;
  /** Remember the names under this key instead of the field (a step that is not a field: brand, model). */
  rememberAs?: string;
}

/**
 * Field-level questions. Every answer is checked with `coerce` against the
 * same contract declaration the flags use, and the reason is shown under the
 * prompt until the answer passes.
 */
export class Ask {
  constructor(
    readonly p: WizardPrompts,
    readonly state: WizardState,
    readonly cat: WizardCatalogs,
    readonly deps: Deps,
  ) {}

  get a(): Record<string, unknown> {
    return this.state.answers;
  }

  spec(field: string): ParamSpec {
    const s = VEHICLE_FIELD_BY_NAME.get(field);
    if (!s) throw new Error(`wizard: ${field} is not a vehicle field`);
    return s;
  }

  required(field: string, o: AskOptions = {}): boolean {
    return o.required ?? this.spec(field).required === true;
  }

  segment(): number {
    return toInt(this.a.vehicle_segment_id) ?? DEFAULT_SEGMENT;
  }

  /** `true`, or why `raw` is not acceptable for `field` (the contract's own words). */
  check(field: string, raw: string, required: boolean): true | string {
    const text = raw.trim();
    if (text === "") return required ? `${field} is required` : true;
    const r = coerce(this.spec(field), humanToWire(field, text));
    return r.problems.length ? `${field} ${r.problems.join("; ")}` : true;
  }

  #message(message: string, clearable: boolean): string {
    return clearable ? `${message} ${this.deps.color.dim(`(${CLEAR} clears)`)}` : message;
  }

  /** Ask one whole number for `field` (or one item of an integer array field); nothing is stored. */
  async askInt(field: string, message: string, current: unknown, o: AskOptions = {}): Promise<number | undefined> {
    const required = this.required(field, o);
    const cur = toInt(current);
    const clearable = !required && cur !== undefined;
    const n = await this.p.number({
      message: this.#message(message, clearable),
      default: cur ?? (typeof o.default === "number" ? o.default : undefined),
      validate: (s) => (clearable && s.trim() === CLEAR ? true : this.check(field, s, required)),
    });
    return n === undefined || Number.isNaN(n) ? undefined : n;
  }

  /** Ask a whole number and store it (a blank optional answer leaves the field out). */
  async int(field: string, message: string, o: AskOptions = {}): Promise<void> {
    this.#store(field, await this.askInt(field, message, this.a[field], o));
  }

  async askText(field: string, message: string, current: unknown, o: AskOptions = {}): Promise<string | undefined> {
    const required = this.required(field, o);
    const cur = isEmpty(current) ? undefined : String(current);
    const clearable = !required && cur !== undefined;
    const text = await this.p.input({
      message: this.#message(message, clearable),
      default: cur ?? (typeof o.default === "string" ? o.default : undefined),
      validate: async (s) => {
        if (clearable && s.trim() === CLEAR) return true;
        const ok = this.check(field, s, required);
        return ok === true && o.also && s.trim() !== "" ? o.also(s.trim()) : ok;
      },
    });
    const t = text.trim();
    return t === "" || (clearable && t === CLEAR) ? undefined : String(humanToWire(field, t));
  }

  async text(field: string, message: string, o: AskOptions = {}): Promise<void> {
    this.#store(field, await this.askText(field, message, this.a[field], o));
  }

  /** A 0/1 field as a yes/no question. */
  async flag(field: string, message: string, defaultValue = false): Promise<boolean> {
    const cur = toInt(this.a[field]);
    const yes = await this.p.confirm({ message, default: cur === undefined ? defaultValue : cur === 1 });
    this.a[field] = yes ? 1 : 0;
    return yes;
  }

  /**
   * One yes/no question for an optional group of fields. "No" clears them;
   * the default is "yes" when any of them has a value already.
   */
  async group(message: string, fields: readonly string[], defaultValue?: boolean): Promise<boolean> {
    const has = fields.some((f) => !isEmpty(this.a[f]));
    const yes = await this.p.confirm({ message, default: defaultValue ?? has });
    if (!yes) for (const f of fields) delete this.a[f];
    return yes;
  }

  /**
   * Choose one catalog item by id. `items` null (the catalog could not be
   * fetched) or empty falls back to typing the id. Nothing is stored.
   */
  async choose(
    field: string,
    message: string,
    items: Item[] | null,
    current: unknown,
    o: PickOptions = {},
  ): Promise<number | undefined> {
    const required = this.required(field, o);
    const cur = toInt(current);
    if (!items || items.length === 0) {
      if (items) this.deps.msg.warn(`${message}: the catalog is empty here; enter the id`);
      return this.askInt(field, `${message} (id)`, current, o);
    }
    this.cat.remember(o.rememberAs ?? field, items);
    const choices: Choice<number | null>[] = items.map((i) => ({
      name: i.label,
      value: i.id,
      description: `id ${i.id}`,
    }));
    if (cur !== undefined && !items.some((i) => i.id === cur))
      choices.unshift({ name: `id ${cur} (given, not in the catalog)`, value: cur });
    if (!required) choices.push({ name: o.noneLabel ?? "(none)", value: null });
    const validate = (v: number | null) =>
      v === null ? (required ? `${field} is required` : true) : this.check(field, String(v), required);
    const fallback = typeof o.default === "number" && items.some((i) => i.id === o.default) ? o.default : undefined;
    const def = cur ?? fallback;
    let value: number | null;
    if (o.search ?? choices.length > 15) {
      value = await this.p.search<number | null>({
        message,
        validate,
        source: (term) => {
          const t = (term ?? "").trim().toLowerCase();
          if (!t) {
            const first = choices.filter((c) => c.value === def);
            return [...first, ...choices.filter((c) => c.value !== def)];
          }
          return choices.filter((c) => c.name.toLowerCase().includes(t) || String(c.value) === t);
        },
      });
    } else {
      value = await this.p.select<number | null>({
        message,
        choices,
        default: def ?? (required ? undefined : null),
      });
    }
    return value ?? undefined;
  }

  /** Choose one catalog item and store its id in `field`. */
  async pick(field: string, message: string, items: Item[] | null, o: PickOptions = {}): Promise<number | undefined> {
    const v = await this.choose(field, message, items, this.a[field], o);
    this.#store(field, v);
    return v;
  }

  /** Choose any number of catalog items for an integer array field (none: the field is left out). */
  async pickMany(field: string, message: string, items: Item[] | null): Promise<number[]> {
    const cur = toInts(this.a[field]);
    let ids: number[];
    if (!items || items.length === 0) {
      if (items) {
        // An empty catalog: nothing to offer; keep what was given.
        return cur;
      }
      const text = await this.p.input({
        message: `${message} (ids, comma-separated)`,
        default: cur.length ? cur.join(",") : undefined,
        validate: (s) => {
          if (s.trim() === "" || s.trim() === CLEAR) return true;
          const r = coerce(
            this.spec(field),
            s.split(",").map((x) => x.trim()),
          );
          return r.problems.length ? `${field} ${r.problems.join("; ")}` : true;
        },
      });
      ids = text.trim() === CLEAR ? [] : toInts(text.split(",").filter((x) => x.trim() !== ""));
    } else {
      this.cat.remember(field, items);
      const choices = items.map((i) => ({ name: i.label, value: i.id, checked: cur.includes(i.id) }));
      for (const id of cur)
        if (!items.some((i) => i.id === id))
          choices.unshift({ name: `id ${id} (given, not in the catalog)`, value: id, checked: true });
      ids = await this.p.checkbox<number>({
        message,
        choices,
        validate: (v) => {
          const r = coerce(this.spec(field), v);
          return r.problems.length ? `${field} ${r.problems.join("; ")}` : true;
        },
      });
    }
    this.#store(field, ids.length ? ids : undefined);
    return ids;
  }

  /**
   * A registration number no vehicle of the account has (with the country answered), checked as it
   * is typed: the rule of `vehicle create` (src/ops/vehicle/registration.ts), asked again at once
   * rather than after the other questions. When the account cannot be read, a warning: the create
   * checks again.
   */
  async registrationFree(reg: string): Promise<true | string> {
    try {
      await refuseTakenRegistration(this.deps, {
        vehicle_reg_number: reg,
        vehicle_reg_number_country: this.a.vehicle_reg_number_country,
      });
      return true;
    } catch (e) {
      if (e instanceof RegistrationTakenError) return `${e.details[0]?.message ?? e.message}: type another number`;
      if (e instanceof InterruptedError || !(e instanceof RentctlError)) throw e;
      this.deps.msg.warn(`cannot look for ${reg} among the vehicles now (${e.message}): checked again on create`);
      return true;
    }
  }

  /** A file that can be uploaded: exists, is a regular, readable, non-empty file. */
  async checkFile(path: string): Promise<true | string> {
    try {
      await checkFiles([path]);
      return true;
    } catch (e) {
      if (e instanceof InputError && e.details[0]) return `${path} ${e.details[0].message}`;
      throw e;
    }
  }

  #store(field: string, v: unknown): void {
    if (v === undefined || isEmpty(v)) delete this.a[field];
    else this.a[field] = v;
  }
}
