import { UsageError } from "../../base/errors.js";
import { formatFor } from "../../files/format.js";
import { readRows } from "../../files/read.js";
import { type FleetSource, openSource } from "../../files/source.js";
import { existingExtrasRefs } from "../../plans/account-plan.js";
import { planIsEmpty } from "../../plans/plan.js";
import { planJson } from "../../plans/plan-print.js";
import { planInput, type SavedPlan } from "../../plans/saved-plan.js";
import { accountStream, mapRows, planAgainstListing, type SyncPlan } from "../../plans/sync.js";
import type { OpContext } from "../context.js";

/**
 * Plan a fleet file against the account (`vehicle diff`, `vehicle apply -f` before it runs): the
 * file and the listing stream together (src/plans/sync.ts planAgainstListing: memory stays flat
 * with the fleet), and with `save` the plan as `vehicle diff --out` saves it for `apply --plan`.
 * Nothing is sent.
 */

/** A fleet file: a path (`-` is stdin, the CLI's) and its format (default: by extension). */
export interface FleetFileSource {
  path: string;
  format?: string;
}

export interface PlanFleetInput {
  source: FleetFileSource;
  /** Also remove the account's vehicles the file does not list. */
  prune?: boolean;
  /** Fields a row leaves out must be empty (the plan clears them). */
  exact?: boolean;
}

export interface PlanFleetOptions {
  /** Also make the saved plan (what `vehicle diff --out` writes and `vehicle apply --plan` runs). */
  save?: boolean;
  /** List the unchanged vehicles in the plan too (the CLI's -v). */
  listUnchanged?: boolean;
}

export interface PlannedFleet {
  sync: SyncPlan;
  /** The file's name as the plan says it. */
  label: string;
  /** False when the account already matches the file. */
  changes: boolean;
  /** With `save`: the plan as saved (JSON-serialisable). */
  saved?: SavedPlan;
}

/** Open a fleet file (stdin spooled to a temp file); the caller cleans it up. */
export async function openFleetSource(ctx: OpContext, source: FleetFileSource | undefined): Promise<FleetSource> {
  if (!source?.path) throw new UsageError("missing -f FILE (a fleet file, or - for stdin with --format)");
  return openSource(ctx, source.path, formatFor(source.path, source.format));
}

/** Plan a fleet file against the account; every problem of the file is one InputError (exit 2), nothing sent. */
export async function planFleetFile(
  ctx: OpContext,
  input: PlanFleetInput,
  opts: PlanFleetOptions = {},
): Promise<PlannedFleet> {
  const fingerprints: Record<string, string> = {};
  const { result, saved } = await planInput(
    ctx,
    () => openFleetSource(ctx, input.source),
    { kind: "vehicle", prune: input.prune, exact: input.exact, save: opts.save },
    async (source) => {
      const sync = await planAgainstListing(
        ctx,
        source.label,
        (tally) =>
          mapRows(ctx, source, readRows(source.path, source.format, source.label), tally, existingExtrasRefs(ctx)),
        {
          prune: input.prune,
          exact: input.exact,
          // the account is listed while the file is read (a file error still wins: rows come first)
          listing: accountStream(ctx, opts.save ? fingerprints : undefined),
          fingerprints: opts.save ? fingerprints : undefined,
          listUnchanged: Boolean(opts.listUnchanged),
          // a fleet file: --exact leaves the account-bound extras ids alone, as images
          keepExtras: true,
        },
      );
      const kept = () => ({ fingerprints: { vehicle: fingerprints }, plan: planJson(sync.plan) });
      return { result: { sync, label: source.label }, kept };
    },
  );
  return { ...result, changes: !planIsEmpty(result.sync.plan), ...(saved ? { saved } : {}) };
}
