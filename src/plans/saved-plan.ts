import type { createHash as createHashFromCrypto } from "node:crypto";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { InputError, StalePlanError, UsageError } from "../base/errors.js";
import { requireUser } from "../config/target.js";
import type { Json, JsonObject } from "../contract/records.js";
import type { CoreDeps } from "../deps.js";
import type { FleetFormat } from "../files/format.js";
import type { FleetSource } from "../files/source.js";
import { writeFileAtomic } from "../files/write.js";
import { currentInput } from "./plan.js";

/**
 * Saved plans: `vehicle diff --out plan.json` / `account diff --out
 * plan.json` write the plan that was reviewed; `apply --plan plan.json`
 * applies exactly that plan, or refuses.
 *
 * A saved plan holds the target it was made for (environment, address or
 * sandbox data file, owner), the input (its text, format, options and
 * sha256), a fingerprint of every record the plan read (vehicles and
 * extras: a hash of the members the plan compares) and the machine plan
 * (what `diff -o json` prints). Never the API key, nor any credential.
 *
 * Applying: the target must be the same (else exit 2, nothing sent); the
 * input is planned again against the account as it is now; when a record the
 * plan touches changed since (its fingerprint differs), or the plan made now
 * is not the saved one, the apply refuses with "plan is stale", naming the
 * records (exit 8, nothing sent).
 */

export const SAVED_PLAN_VERSION = 1;

/** `vehicle diff --out`, `account diff --out`, and a plan of many vehicles (an edit, a calendar edit) by id. */
export type PlanKind = "vehicle" | "account" | "edit";

export interface PlanTarget {
  env: string;
  /** The base address, or `sandbox:<data file>` for the embedded sandbox (its port changes every run). */
  address: string;
  owner: number;
}

export interface SavedPlan {
  rentctl_plan: number;
  kind: PlanKind;
  created: string;
  target: PlanTarget;
  input: {
    label: string;
    format: FleetFormat;
    /** Image paths in the input are relative to this directory. */
    baseDir: string;
    sha256: string;
    prune: boolean;
    exact: boolean;
    text: string;
  };
  /** Per kind ("vehicle", "extra"): record id -> fingerprint, for every record the plan read. */
  fingerprints: Record<string, Record<string, string>>;
  plan: JsonObject;
}

/** A record's fingerprint: a short hash of the members given (sorted keys, canonical JSON). */
/**
 * node:crypto when a plan is saved or checked, not when this module loads:
 * every diff and apply imports it, and crypto takes ~13 ms to load.
 */
const createHash: typeof createHashFromCrypto = (...args) =>
  process.getBuiltinModule("node:crypto").createHash(...args);

export function fingerprint(members: Record<string, unknown>): string {
  const keys = Object.keys(members).sort();
  const canon = JSON.stringify(keys.map((k) => [k, members[k]]));
  return createHash("sha256").update(canon).digest("hex").slice(0, 16);
}

export async function planTarget(deps: CoreDeps): Promise<PlanTarget> {
  const t = await deps.target();
  const address = t.embeddedSandbox ? `sandbox:${t.sandboxDataFile ?? "memory"}` : t.baseUrl;
  return { env: t.env, address, owner: await requireUser(deps) };
}

export interface SavePlanInput {
  kind: PlanKind;
  source: FleetSource;
  prune?: boolean;
  exact?: boolean;
  fingerprints: SavedPlan["fingerprints"];
  plan: JsonObject;
}

/** The text of an input, read before it is cleaned up (stdin is spooled to a temp file). */
export async function inputText(source: FleetSource): Promise<string> {
  return readFile(source.path, "utf8");
}

/**
 * Plan an input and, with `save`, make its saved plan: the input opened, its
 * text read first (stdin is spooled to a file that cleanup removes), planned,
 * and cleaned up after, whatever happens. `plan` gives its result and, for
 * saving only, what the saved plan keeps of it.
 */
export async function planInput<R>(
  deps: CoreDeps,
  open: () => Promise<FleetSource>,
  p: { kind: PlanKind; prune?: boolean; exact?: boolean; save?: boolean },
  plan: (source: FleetSource) => Promise<{ result: R; kept: () => Pick<SavePlanInput, "fingerprints" | "plan"> }>,
): Promise<{ result: R; saved?: SavedPlan }> {
  const source = await open();
  try {
    const text = p.save ? await inputText(source) : undefined;
    const made = await plan(source);
    if (text === undefined) return { result: made.result };
    const { kind, prune, exact } = p;
    return {
      result: made.result,
      saved: await makeSavedPlan(deps, { kind, source, prune, exact, text, ...made.kept() }),
    };
  } finally {
    await source.cleanup();
  }
}

export async function writeSavedPlan(deps: CoreDeps, path: string, p: SavePlanInput & { text: string }): Promise<void> {
  await saveSavedPlan(path, await makeSavedPlan(deps, p));
}

/** Write a made plan to a file (`diff --out`), atomically. */
export async function saveSavedPlan(path: string, saved: SavedPlan): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(saved, null, 2)}\n`);
}

/** A plan as `diff --out` saves it (the library's fleet.plan returns this object). */
export async function makeSavedPlan(deps: CoreDeps, p: SavePlanInput & { text: string }): Promise<SavedPlan> {
  return {
    rentctl_plan: SAVED_PLAN_VERSION,
    kind: p.kind,
    created: new Date(deps.now()).toISOString(),
    target: await planTarget(deps),
    input: {
      label: p.source.label,
      format: p.source.format,
      baseDir: p.source.baseDir,
      sha256: createHash("sha256").update(p.text).digest("hex"),
      prune: Boolean(p.prune),
      exact: Boolean(p.exact),
      text: p.text,
    },
    fingerprints: p.fingerprints,
    plan: p.plan,
  };
}

export async function readSavedPlan(path: string, kind: PlanKind | readonly PlanKind[]): Promise<SavedPlan> {
  let saved: SavedPlan;
  try {
    saved = JSON.parse(await readFile(path, "utf8")) as SavedPlan;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new InputError(
      `--plan ${path}: ${err.code === "ENOENT" ? "no such file" : `not a saved plan (${err.message})`}`,
    );
  }
  return checkSavedPlan(saved, kind, `--plan ${path}`);
}

/** A saved plan read from a file or given to the library: its version, kind and the hash of its input. */
export function checkSavedPlan(saved: SavedPlan, kind: PlanKind | readonly PlanKind[], what: string): SavedPlan {
  if (
    typeof saved !== "object" ||
    saved === null ||
    saved.rentctl_plan !== SAVED_PLAN_VERSION ||
    typeof saved.input?.text !== "string"
  )
    throw new InputError(`${what}: not a rentctl saved plan (version ${SAVED_PLAN_VERSION})`);
  if (typeof kind === "string" ? saved.kind !== kind : !kind.includes(saved.kind))
    throw new UsageError(
      saved.kind === "edit"
        ? `${what}: a plan of changes to many vehicles; apply it with \`rentctl account apply --plan\``
        : `${what}: a plan of \`${saved.kind} diff\`; apply it with \`rentctl ${saved.kind} apply --plan\``,
    );
  if (createHash("sha256").update(saved.input.text).digest("hex") !== saved.input.sha256)
    throw new InputError(`${what}: the input inside the plan does not match its hash (the plan was edited)`);
  return saved;
}

/** The plan must be applied where it was made: environment, address and owner. */
export async function checkPlanTarget(deps: CoreDeps, saved: SavedPlan): Promise<void> {
  const now = await planTarget(deps);
  const diffs: Array<{ field: string; message: string }> = [];
  for (const k of ["env", "address", "owner"] as const)
    if (String(now[k]) !== String(saved.target[k]))
      diffs.push({ field: k, message: `plan: ${saved.target[k]}, now: ${now[k]}` });
  if (diffs.length)
    throw new UsageError("the plan was made for another target; nothing was sent", {
      details: diffs,
      hint: "select the profile / environment / owner the plan was made for, or make a new plan with diff --out",
    });
}

/** The plan's input as a source to plan again (a private temp file; removed by cleanup). */
export async function savedInput(deps: CoreDeps, saved: SavedPlan): Promise<FleetSource> {
  return textSource(deps, saved.input);
}

/** An input given as text (a saved plan's, the library's document) as a source: a private temp file, removed by cleanup. */
export async function textSource(
  deps: CoreDeps,
  input: Pick<SavedPlan["input"], "label" | "format" | "baseDir" | "text">,
): Promise<FleetSource> {
  const dir = join(deps.paths.dataDir, "bulk");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ext = extname(input.label) || `.${input.format}`;
  const path = join(dir, `plan-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}${ext}`);
  await writeFile(path, input.text, { mode: 0o600 });
  return {
    path,
    baseDir: input.baseDir,
    format: input.format,
    label: input.label,
    cleanup: () => unlink(path).catch(() => {}),
  };
}

/** A record the plan touches: its kind and id, and how to name it. */
export interface Touched {
  kind: string;
  id: number;
  name: string;
}

/**
 * Refuse a stale plan (exit 8, nothing sent): a record the plan touches
 * whose fingerprint changed (or that is gone), or a plan made now that is
 * not the saved one (a record appeared, a create's identity is taken, ...).
 */
export function checkStale(
  saved: SavedPlan,
  now: {
    plan: JsonObject;
    fingerprints: SavedPlan["fingerprints"];
    touched: Touched[];
    /**
     * Resuming an interrupted apply of this plan: the records the plan made now still touches. The
     * rows done before are the plan's own writes (left out of the plan made now), so only these
     * are checked, and every entry of the plan made now must be an entry of the saved plan.
     */
    stillPlanned?: Touched[];
  },
): void {
  const details: Array<{ field: string; message: string }> = [];
  const still = now.stillPlanned && new Set(now.stillPlanned.map((t) => `${t.kind}:${t.id}`));
  for (const t of now.touched) {
    if (still && !still.has(`${t.kind}:${t.id}`)) continue;
    const was = saved.fingerprints[t.kind]?.[String(t.id)];
    const is = now.fingerprints[t.kind]?.[String(t.id)];
    if (was !== is)
      details.push({
        field: t.name,
        message: is === undefined ? "gone since the plan was made" : "changed since the plan was made",
      });
  }
  if (still && !details.length) for (const d of planDifferences(saved.plan, now.plan, true)) details.push(d);
  else if (!details.length && JSON.stringify(now.plan) !== JSON.stringify(saved.plan)) {
    for (const d of planDifferences(saved.plan, now.plan)) details.push(d);
    if (!details.length) details.push({ field: "plan", message: "the plan made now differs from the saved one" });
  }
  if (details.length)
    throw new StalePlanError("plan is stale: the account changed since the plan was made; nothing was sent", {
      details,
      hint: "make and review a new plan (diff --out), then apply that one",
    });
}

/** The entries of two machine plans that differ, named by their reg / key / id (at most 20). */
function planDifferences(a: JsonObject, b: JsonObject, subset = false): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  const walk = (x: Json | undefined, y: Json | undefined, at: string) => {
    if (out.length >= 20) return;
    if (Array.isArray(x) || Array.isArray(y)) {
      const name = (e: Json) =>
        typeof e === "object" && e !== null && !Array.isArray(e)
          ? String(e.reg ?? e.key ?? e.vehicle_id ?? e.extra_id ?? JSON.stringify(e))
          : JSON.stringify(e);
      const xs = new Map((Array.isArray(x) ? x : []).map((e) => [name(e), JSON.stringify(e)]));
      const ys = new Map((Array.isArray(y) ? y : []).map((e) => [name(e), JSON.stringify(e)]));
      for (const [k, v] of ys)
        if (xs.get(k) !== v)
          out.push({
            field: `${at} ${k}`,
            message: xs.has(k) ? "planned differently now" : "planned now, not in the saved plan",
          });
      if (!subset)
        for (const k of xs.keys())
          if (!ys.has(k)) out.push({ field: `${at} ${k}`, message: "in the saved plan, not planned now" });
      return;
    }
    if (typeof x === "object" && x !== null && typeof y === "object" && y !== null) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)]))
        walk((x as JsonObject)[k], (y as JsonObject)[k], at ? `${at}.${k}` : k);
      return;
    }
    // a resumed plan's counts (unchanged, ...) move as its rows are done
    if (!subset && JSON.stringify(x) !== JSON.stringify(y))
      out.push({ field: at, message: `${JSON.stringify(x)} then, ${JSON.stringify(y)} now` });
  };
  walk(a, b, "");
  return out;
}

/** The fingerprint of a listed vehicle: the input fields a plan compares. */
export function vehicleFingerprint(record: JsonObject): string {
  return fingerprint(currentInput(record));
}

/** Fingerprints of listed vehicles, by id. */
export function vehicleFingerprints(records: readonly JsonObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of records) out[String(r.id)] = vehicleFingerprint(r);
  return out;
}

/** The vehicles a machine plan (planJson) changes or removes. */
export function touchedVehicles(plan: JsonObject): Touched[] {
  const out: Touched[] = [];
  for (const key of ["change", "remove"] as const) {
    const list = plan[key];
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      if (typeof e !== "object" || e === null || Array.isArray(e)) continue;
      const id = Number(e.vehicle_id);
      out.push({
        kind: "vehicle",
        id,
        name: `vehicle ${id} (${String(e.reg)}${e.row === undefined ? "" : `, row ${e.row}`})`,
      });
    }
  }
  return out;
}
