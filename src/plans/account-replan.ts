import type { CoreDeps, Deps } from "../deps.js";
import type { FleetSource } from "../files/source.js";
import {
  type AccountPlan,
  type AccountPlanOptions,
  accountFingerprints,
  planAccount,
  touchedRecords,
} from "./account-plan.js";
import { accountPlanJson } from "./account-print.js";
import { checkStale, type SavedPlan } from "./saved-plan.js";

/**
 * A saved account plan's input planned again, refused (StalePlanError, exit 8, nothing sent)
 * when a record it touches changed since or the plan made now is not the saved one. `resumed`:
 * a resumed apply's rows done already are no longer in the plan made now (only the rest must match).
 */
export async function replanSaved(
  deps: CoreDeps & Partial<Pick<Deps, "flags">>,
  source: FleetSource,
  saved: SavedPlan,
  opts: AccountPlanOptions,
  resumed: boolean,
): Promise<AccountPlan> {
  const plan = await planAccount(deps, source, { ...opts, fingerprints: true });
  const json = accountPlanJson(plan);
  checkStale(saved, {
    plan: json,
    fingerprints: accountFingerprints(plan),
    touched: touchedRecords(saved.plan),
    ...(resumed ? { stillPlanned: touchedRecords(json) } : {}),
  });
  return plan;
}
