import { createHash, randomBytes } from "node:crypto";
import { UsageError } from "../base/errors.js";
import type { PlanTarget, SavedPlan } from "../plans/saved-plan.js";

/**
 * The plan tokens of `rentctl mcp`: plan_changes issues one per plan,
 * apply_plan takes it. A token names a plan this server made and holds in
 * memory (an assistant cannot make one up or edit what it names), bound to the
 * plan's content, its target (environment, address, owner) and the
 * fingerprints of the records it read; single use (taken before anything is
 * sent, spent even if the apply is then refused); expiring (15 minutes unless
 * --plan-ttl says otherwise). The apply itself checks the target and the
 * records again (a stale plan is refused with nothing sent).
 */

export const DEFAULT_PLAN_TTL_MS = 15 * 60_000;

interface Issued {
  saved: SavedPlan;
  binding: string;
  expiresAt: number;
  used: boolean;
}

/** What a token is bound to: the plan, its target, the fingerprints of what it read. */
function bindingOf(saved: SavedPlan): string {
  return createHash("sha256")
    .update(JSON.stringify([saved.plan, saved.target, saved.fingerprints, saved.input.sha256]))
    .digest("hex");
}

export class PlanTokens {
  readonly #issued = new Map<string, Issued>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(ttlMs = DEFAULT_PLAN_TTL_MS, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  issue(saved: SavedPlan): { token: string; expiresAt: string } {
    const binding = bindingOf(saved);
    // the owner is readable in the token (a token of another owner is named as such)
    const token = `rp_${saved.target.owner}_${binding.slice(0, 12)}${randomBytes(12).toString("hex")}`;
    const expiresAt = this.#now() + this.#ttlMs;
    this.#issued.set(token, { saved, binding, expiresAt, used: false });
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The plan of a token, spent now; a refusal (nothing sent) names why. */
  take(token: string, target: PlanTarget): SavedPlan {
    const owner = /^rp_(\d+)_/.exec(String(token))?.[1];
    const issued = this.#issued.get(token);
    if (!issued) {
      if (owner !== undefined && owner !== String(target.owner))
        throw new UsageError(
          `plan token of owner ${owner}: this server acts for owner ${target.owner}; nothing was sent`,
        );
      throw new UsageError("unknown plan token: make a plan with plan_changes first; nothing was sent");
    }
    if (issued.used) throw new UsageError("plan token already used: plan again for a new token; nothing was sent");
    issued.used = true;
    if (this.#now() >= issued.expiresAt)
      throw new UsageError(
        `plan token expired at ${new Date(issued.expiresAt).toISOString()}: plan again for a new token; nothing was sent`,
      );
    const t = issued.saved.target;
    if (t.env !== target.env || t.address !== target.address || t.owner !== target.owner)
      throw new UsageError(
        `plan token for ${t.env} owner ${t.owner}: this server acts for ${target.env} owner ${target.owner}; nothing was sent`,
      );
    if (bindingOf(issued.saved) !== issued.binding)
      throw new UsageError("plan token does not match its plan; nothing was sent");
    return issued.saved;
  }
}
