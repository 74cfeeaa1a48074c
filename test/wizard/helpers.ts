import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import type { ApiClient, CallResult } from "../../src/api/client.js";
import type { FilePart } from "../../src/api/encode.js";
import type { IO } from "../../src/base/io.js";
import type { JsonObject } from "../../src/contract/records.js";
import type { Deps } from "../../src/deps.js";
import { createDeps } from "../../src/deps.js";
import type { Choice, WizardPrompts } from "../../src/wizard/prompts.js";

// ---------------------------------------------------------------- scripted prompts

/** Press enter: take the prompt's default. */
export const DEFAULT = Symbol("default");
/** Ctrl-C at this prompt (inquirer throws ExitPromptError). */
export const CTRL_C = Symbol("ctrl-c");

export type Kind = "select" | "search" | "input" | "number" | "confirm" | "checkbox";

export interface PromptCall {
  kind: Kind;
  message: string;
  answer?: unknown;
}

/**
 * One scripted answer: the prompt's message must match `match`. Answers:
 * - `DEFAULT`, `CTRL_C`;
 * - input/number: the text typed (numbers are typed as text);
 * - confirm: a boolean;
 * - select: a choice value, or a RegExp on the choice names;
 * - search: a string is the search term typed (the first result is taken), a RegExp picks by name;
 * - checkbox: an array of values, or of RegExps on names.
 */
export type Step = [match: string | RegExp, answer: unknown];

export interface Script {
  prompts: WizardPrompts;
  /** Every prompt asked, in order. */
  log: PromptCall[];
  /** Answers the prompt's `validate` refused, with the reason shown (the prompt was asked again). */
  rejected: Array<{ message: string; answer: unknown; reason: string }>;
  /** Steps not used. */
  remaining(): Step[];
}

function matches(m: string | RegExp, message: string): boolean {
  return typeof m === "string" ? message.includes(m) : m.test(message);
}

/**
 * Prompts answered from a script, in order. In strict mode every prompt must
 * match the next step; in lenient mode a prompt that does not match the next
 * step takes its default (as if the user pressed enter).
 */
export function scripted(steps: Step[], mode: "strict" | "lenient" = "strict"): Script {
  const queue = [...steps];
  const log: PromptCall[] = [];
  const rejected: Script["rejected"] = [];

  const next = (kind: Kind, rawMessage: string): { message: string; answer: unknown } => {
    const message = stripVTControlCharacters(rawMessage);
    const step = queue[0];
    if (step && matches(step[0], message)) {
      queue.shift();
      if (step[1] === CTRL_C) {
        log.push({ kind, message, answer: "^C" });
        const e = new Error("User force closed the prompt with SIGINT");
        e.name = "ExitPromptError";
        throw e;
      }
      return { message, answer: step[1] };
    }
    if (mode === "lenient") return { message, answer: DEFAULT };
    throw new Error(
      `unexpected ${kind} prompt ${JSON.stringify(message)}; next scripted step: ${step ? String(step[0]) : "(none)"}`,
    );
  };

  const ask = async <V>(
    kind: Kind,
    message: string,
    resolve: (answer: unknown) => V | Promise<V>,
    validate?: (v: V) => true | string | Promise<true | string>,
  ): Promise<V> => {
    for (let guard = 0; guard < 50; guard++) {
      const { message: m, answer } = next(kind, message);
      const value = await resolve(answer);
      const ok = validate ? await validate(value) : true;
      log.push({ kind, message: m, answer: value });
      if (ok === true) return value;
      rejected.push({ message: m, answer: value, reason: stripVTControlCharacters(ok) });
      if (mode === "lenient" && answer === DEFAULT)
        throw new Error(`no scripted answer for ${JSON.stringify(m)} and its default is refused: ${ok}`);
    }
    throw new Error(`too many re-asks of ${JSON.stringify(message)}`);
  };

  const byName = <T>(choices: Choice<T>[], re: RegExp, message: string): T => {
    const c = choices.find((x) => re.test(x.name));
    if (!c) throw new Error(`${message}: no choice matches ${re} among ${choices.map((x) => x.name).join(" | ")}`);
    return c.value;
  };

  const prompts: WizardPrompts = {
    select: (o) =>
      ask("select", o.message, (a) => {
        if (a === DEFAULT) return o.default !== undefined ? o.default : o.choices.find((c) => !c.disabled)!.value;
        if (a instanceof RegExp) return byName(o.choices, a, o.message);
        if (!o.choices.some((c) => c.value === a))
          throw new Error(
            `${o.message}: ${String(a)} is not a choice (${o.choices.map((c) => String(c.value)).join(", ")})`,
          );
        return a as never;
      }),
    search: (o) =>
      ask(
        "search",
        o.message,
        async (a) => {
          if (a === DEFAULT) return (await o.source(undefined))[0]!.value;
          if (a instanceof RegExp) return byName(await o.source(undefined), a, o.message);
          const found = await o.source(String(a));
          if (!found.length) throw new Error(`${o.message}: nothing found for ${JSON.stringify(a)}`);
          return found[0]!.value;
        },
        o.validate,
      ),
    input: (o) =>
      ask("input", o.message, (a) => (a === DEFAULT || a === "" ? (o.default ?? "") : String(a)), o.validate),
    number: async (o) => {
      const text = await ask(
        "number",
        o.message,
        (a) => (a === DEFAULT || a === "" ? (o.default === undefined ? "" : String(o.default)) : String(a)),
        o.validate,
      );
      const n = Number(text.trim());
      return text.trim() === "" || Number.isNaN(n) ? undefined : n;
    },
    confirm: (o) =>
      ask("confirm", o.message, (a) => {
        if (a === DEFAULT) return o.default ?? false;
        if (typeof a !== "boolean") throw new Error(`${o.message}: confirm needs a boolean, got ${String(a)}`);
        return a;
      }),
    checkbox: (o) =>
      ask(
        "checkbox",
        o.message,
        (a) => {
          if (a === DEFAULT) return o.choices.filter((c) => c.checked).map((c) => c.value);
          if (!Array.isArray(a)) throw new Error(`${o.message}: checkbox needs an array`);
          return a.map((x) => (x instanceof RegExp ? byName(o.choices, x, o.message) : x));
        },
        o.validate,
      ),
  };
  return { prompts, log, rejected, remaining: () => [...queue] };
}

// ---------------------------------------------------------------- canned catalogs and a stub client

const list = (items: JsonObject[]): CallResult => ({
  body: { list: items },
  decoded: { kind: "list", items, body: { list: items } },
  status: 200,
});
const flexible = (body: JsonObject): CallResult => ({ body, decoded: { kind: "flexible", body }, status: 200 });

const BRANDS: Record<number, JsonObject[]> = {
  1: [
    { id: 10, name: "Toyota" },
    { id: 11, name: "Volkswagen" },
    { id: 12, name: "BMW" },
  ],
  2: [{ id: 20, name: "Ducati" }],
};
const MODELS: Record<number, JsonObject[]> = {
  10: [
    { id: 100, name: "Corolla" },
    { id: 101, name: "Yaris" },
  ],
  11: [{ id: 110, name: "Golf" }],
  20: [{ id: 200, name: "Monster" }],
};
const EQUIPMENTS: Record<number, JsonObject[]> = {
  100: [
    { id: 1000, name: "1.8 Hybrid Comfort" },
    { id: 1001, name: "2.0 GR Sport" },
  ],
  101: [{ id: 1010, name: "1.5 Active" }],
  110: [{ id: 1100, name: "1.5 TSI Life" }],
  200: [{ id: 2000, name: "937 Plus" }],
};

export const CATALOGS: Record<string, (p: Record<string, unknown>) => CallResult> = {
  "catalog.segments": () =>
    list([
      { id: 1, name: "Cars", realm: "land" },
      { id: 2, name: "Motorcycles", realm: "land" },
    ]),
  "catalog.brands": (p) => list(BRANDS[Number(p.segment_id ?? 1)] ?? []),
  "catalog.models": (p) => list(MODELS[Number(p.brand_id)] ?? []),
  "catalog.equipments": (p) => list(EQUIPMENTS[Number(p.model_id)] ?? []),
  "catalog.years_of_issue": () => list(Array.from({ length: 19 }, (_, i) => ({ id: i + 1, name: String(2008 + i) }))),
  "catalog.classes_or_types": (p) =>
    list(
      Number(p.segment_id) === 1
        ? [
            { id: 1, name: "Compact" },
            { id: 2, name: "SUV" },
          ]
        : [{ id: 7, name: "Naked" }],
    ),
  // Nested one level down, on purpose: the wizard finds the countries defensively.
  "catalog.setup": () =>
    flexible({
      default_currency_id: 1,
      data: {
        registration_countries: [
          { id: 1, name: "Germany", code: "DE" },
          { id: 2, name: "Spain", code: "ES" },
        ],
      },
    }),
  "catalog.currencies": () =>
    list([
      { id: 1, code: "EUR", symbol: "€" },
      { id: 2, code: "USD", symbol: "$" },
    ]),
  "catalog.protection_plans": () =>
    flexible({
      plans: [{ id: 3, code: "cdw1", name: "CDW One" }],
      deposit_return_options: [
        { id: 1, name: "On return" },
        { id: 2, name: "Within 3 days" },
      ],
    }),
  "catalog.distance_units": () =>
    list([
      { id: 1, name: "Kilometres" },
      { id: 2, name: "Miles" },
    ]),
  "catalog.fuel_policy": () =>
    list([
      { id: 1, name: "Full to full" },
      { id: 2, name: "Same to same" },
    ]),
  "catalog.delivery": () =>
    list([
      { id: 1, name: "Airport" },
      { id: 2, name: "Train station" },
    ]),
  "catalog.benefits": () =>
    list([
      { id: 1, name: "Free cancellation" },
      { id: 2, name: "Unlimited mileage" },
    ]),
  "catalog.additional_features": () =>
    list([
      { id: 1, name: "Air conditioning" },
      { id: 2, name: "Navigation" },
    ]),
  "catalog.payment_types": () =>
    list([
      { id: 1, name: "Card" },
      { id: 2, name: "Cash" },
    ]),
};

export interface Sent {
  opId: string;
  params: Record<string, unknown>;
  files?: string[];
}

export class StubClient {
  readonly sent: Sent[] = [];
  /** Answers to vehicles.create, in turn (the last one repeats). Throw to fail. */
  create: Array<(params: Record<string, unknown>) => CallResult> = [
    (p) => flexible({ data: { id: 501, ...(p as JsonObject) } }),
  ];
  /** Catalog operations that fail (e.g. to test the fallback to typed ids). */
  failing = new Set<string>();
  /** The owner's vehicles, as vehicles.list answers them (the wizard looks for the registration number). */
  account: JsonObject[] = [];
  #nextImage = 900;

  get hasKey(): boolean {
    return true;
  }

  async close(): Promise<void> {}

  calls(opId: string): Sent[] {
    return this.sent.filter((s) => s.opId === opId);
  }

  async call(opId: string, params: Record<string, unknown>, extra: { files?: FilePart[] } = {}): Promise<CallResult> {
    this.sent.push({ opId, params: { ...params }, files: extra.files?.map((f) => f.filename) });
    if (this.failing.has(opId)) {
      const { NetworkError } = await import("../../src/api/errors.js");
      throw new NetworkError(`cannot reach the server (${opId})`);
    }
    if (opId === "vehicles.create") {
      const i = this.calls("vehicles.create").length - 1;
      const f = this.create[Math.min(i, this.create.length - 1)]!;
      return f(params);
    }
    if (opId === "vehicles.list") {
      // the account (vehicle create and the wizard look for the registration number first)
      const limit = Number(params.limit ?? 15);
      const items = this.account.slice(Number(params.offset ?? 0), Number(params.offset ?? 0) + limit);
      const page = { items, total: this.account.length, perPage: limit, limit };
      return { body: { data: [] }, decoded: { kind: "paginated", page }, status: 200 } as unknown as CallResult;
    }
    if (opId === "vehicles.upload") {
      const ids = (extra.files ?? []).map(() => this.#nextImage++);
      return flexible({ data: { image_ids: ids } });
    }
    const c = CATALOGS[opId];
    if (!c) throw new Error(`stub: no answer for ${opId}`);
    return c(params);
  }
}

// ---------------------------------------------------------------- deps

class Sink extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export interface Fake {
  deps: Deps;
  client: StubClient;
  stdout: () => string;
  stderr: () => string;
  dir: string;
  cleanup(): void;
}

export function fakeDeps(opts: { tty?: boolean; flags?: Record<string, unknown> } = {}): Fake {
  const dir = mkdtempSync(join(tmpdir(), "rentctl-wizard-"));
  const out = new Sink();
  const err = new Sink();
  const io: IO = {
    stdout: out,
    stderr: err,
    stdin: process.stdin,
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: opts.tty ?? true,
  };
  const client = new StubClient();
  const env = {
    RENTCTL_ENV: "test",
    RENTCTL_BASE_URL: "http://stub.invalid",
    RENTCTL_API_KEY: "stub-key",
    RENTCTL_USER_ID: "1001",
    RENTCTL_CONFIG_DIR: join(dir, "config"),
    RENTCTL_DATA_DIR: join(dir, "data"),
  };
  const deps = createDeps(io, env, { color: false, ...opts.flags }, { client: () => client as unknown as ApiClient });
  return {
    deps,
    client,
    stdout: () => out.text,
    stderr: () => stripVTControlCharacters(err.text),
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A complete vehicle, as a file for --from-file (wire names): the review comes at once. */
export const COMPLETE_RECORD = {
  vehicle_segment_id: 1,
  vehicle_model_id: 1000,
  vehicle_year_of_issue_id: 16,
  vehicle_class_id: 1,
  vehicle_reg_number_country: 1,
  vehicle_reg_number: "B-SC 1234",
  pickup_location: "Berlin, Alexanderplatz 1",
  price_per_day: 45,
  price_per_3days: 42,
  price_per_week: 39,
  price_per_14days: 35,
  vehicle_currency_id: 1,
  vehicle_protection_plans_no_deposit: 1,
  vehicle_protection_plans_deposit_price: 300,
  vehicle_protection_plans_deposit_pay_cash: 1,
  vehicle_protection_plans_deposit_pay_debit_card: 0,
  vehicle_protection_plans_deposit_pay_credit_card: 0,
  vehicle_protection_plans_deposit_return_period_cash: 1,
  vehicle_protection_plans_third_party_insurance: 1,
  vehicle_distance_unit_id: 1,
  vehicle_distance_included: 250,
  vehicle_surcharge_for_excess: 1,
  price_surcharge_over_time: 900,
  vehicle_minimal_renting_period: 1,
  vehicle_minimal_age_to_rent: 21,
  vehicle_drivers_experience: 2,
  vehicle_activity: 1,
  vehicle_passenger_capacity: 5,
  vehicle_luggage_capacity: 3,
  vehicle_fuel_policy: 1,
  vehicle_benefits_id: [1],
};
