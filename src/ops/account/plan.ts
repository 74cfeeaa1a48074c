import { InputError } from "../../base/errors.js";
import { formatFor } from "../../files/format.js";
import { openSource } from "../../files/source.js";
import type { AccountPlan } from "../../plans/account-plan.js";
import { accountFingerprints, accountPlanIsEmpty, planAccount } from "../../plans/account-plan.js";
import { accountPlanJson } from "../../plans/account-print.js";
import { replanSaved } from "../../plans/account-replan.js";
import type { SavedPlan } from "../../plans/saved-plan.js";
import * as sp from "../../plans/saved-plan.js";
import { textSource } from "../../plans/saved-plan.js";
import type { OpContext } from "../context.js";

/**
 * The one "plan an account document (and save the plan)" of every front end: `account diff`
 * (`--out`), `account apply -f`, the library's `account.plan`, the MCP server's `plan_changes`.
 * And the one stale check of a saved plan: its input planned again and compared with what was
 * saved (`checkSavedAccountPlan`), before a dry run shows it or an apply runs it.
 */

/** What to plan: an account file (a path; `-` is stdin, the CLI's), or a document given as data. */
export type AccountPlanSource =
  | { path: string; format?: string }
  | {
      /** `{ extras: [...], vehicles: [...] }` (rows as in the files), or a list of vehicles. */
      document: object;
      /** The name the plan gives the input (default `account.json`). */
      label?: string;
      /** Where relative paths in it (images) are read from (default: the working directory). */
      baseDir?: string;
    };

export interface PlanAccountInput {
  source: AccountPlanSource;
  /** Also delete the extras and remove the vehicles the input does not list. */
  prune?: boolean;
  /** Vehicle fields a row leaves out must be empty (the plan clears them). */
  exact?: boolean;
}

export interface PlanAccountOptions {
  /** Also make the saved plan (what `diff --out` writes and `apply --plan` runs): the input's text and a fingerprint of every record read. */
  save?: boolean;
  /** List the unchanged vehicles in the plan too (the CLI's -v). */
  listUnchanged?: boolean;
}

export interface PlannedAccount {
  plan: AccountPlan;
  /** False when the account already matches the input. */
  changes: boolean;
  /** With `save`: the plan as saved (JSON-serialisable). */
  saved?: SavedPlan;
}

/** Plan an account document against the account; every problem of the input is one InputError (exit 2), nothing sent. */
export async function planAccountDocument(
  ctx: OpContext,
  input: PlanAccountInput,
  opts: PlanAccountOptions = {},
): Promise<PlannedAccount> {
  const { prune, exact } = input;
  const { result: plan, saved } = await sp.planInput(
    ctx,
    () => openAccountSource(ctx, input.source),
    { kind: "account", prune, exact, save: opts.save },
    async (source) => {
      const plan = await planAccount(ctx, source, {
        prune,
        exact,
        ...(opts.listUnchanged !== undefined ? { listUnchanged: opts.listUnchanged } : {}),
        fingerprints: Boolean(opts.save),
      });
      return { result: plan, kept: () => ({ fingerprints: accountFingerprints(plan), plan: accountPlanJson(plan) }) };
    },
  );
  return { plan, changes: !accountPlanIsEmpty(plan), ...(saved ? { saved } : {}) };
}

async function openAccountSource(ctx: OpContext, source: AccountPlanSource) {
  if (typeof source !== "object" || source === null)
    throw new InputError("an account plan takes a file path or an account document");
  if ("path" in source) {
    return openSource(ctx, source.path, formatFor(source.path, source.format));
  }
  if (typeof source.document !== "object" || source.document === null)
    throw new InputError("an account plan takes a file path or an account document");
  return textSource(ctx, {
    label: source.label ?? "account.json",
    format: "json",
    baseDir: source.baseDir ?? process.cwd(),
    text: `${JSON.stringify(source.document, null, 2)}\n`,
  });
}

/**
 * The one stale check of a saved account plan: refused when made for another target; its input
 * planned again, and refused (StalePlanError, exit 8, nothing sent) when a record it touches
 * changed since or the plan made now is not the saved one. `stillPlanned`: a resumed apply's
 * rows done already are no longer in the plan made now (only the rest must match).
 */
export async function checkSavedAccountPlan(
  ctx: OpContext,
  saved: SavedPlan,
  opts: { resumed?: boolean; listUnchanged?: boolean } = {},
): Promise<AccountPlan> {
  await sp.checkPlanTarget(ctx, saved);
  const source = await sp.savedInput(ctx, saved);
  try {
    const planOpts = {
      prune: saved.input.prune,
      exact: saved.input.exact,
      ...(opts.listUnchanged !== undefined ? { listUnchanged: opts.listUnchanged } : {}),
    };
    return await replanSaved(ctx, source, saved, planOpts, Boolean(opts.resumed));
  } finally {
    await source.cleanup();
  }
}
