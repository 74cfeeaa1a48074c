import { createHash } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { lockSync } from "../base/lock.js";
import { writeFileAtomic } from "../base/temp-files.js";
import type { Target } from "../config/target.js";
import { isEmpty } from "../contract/validate.js";
import type { WizardState } from "./ask.js";

/**
 * The wizard's draft: the answers given so far, kept when the wizard is left
 * with Ctrl-C, so the next `vehicle wizard` can resume them. One draft per
 * environment and owner (an answer picked from one account's catalogs means
 * nothing in another), in the data dir under `drafts/`, mode 0600, written
 * whole (temp file, fsync, rename) under the one lock module (two terminals
 * may run the wizard for the same owner).
 *
 * A draft lives in the data dir of the account it belongs to, so it keeps
 * account-bound ids (uploaded image ids): a retry reuses them.
 */

const VERSION = 1;

export interface Draft {
  version: number;
  /** When it was saved (ISO 8601). */
  savedAt: string;
  env: string;
  owner: number | null;
  answers: Record<string, unknown>;
  aux: WizardState["aux"];
  imageFiles: string[];
}

/** The draft file of this environment and owner (a custom base address gets its own, by a hash of it). */
export function draftFile(dataDir: string, target: Pick<Target, "env" | "baseUrl" | "userId">): string {
  const env =
    target.env === "custom"
      ? `custom-${createHash("sha256").update(target.baseUrl).digest("hex").slice(0, 12)}`
      : target.env;
  return join(dataDir, "drafts", `vehicle-${env}-${target.userId ?? "none"}.json`);
}

/**
 * How many answers a draft keeps: the field values and the image files chosen (each one an
 * answer to its own question, kept beside the fields). The resume question and the Ctrl-C
 * message both count with this, so they say the same number.
 */
export function answerCount(answers: Record<string, unknown>, imageFiles: readonly string[] = []): number {
  return Object.entries(answers).filter(([k, v]) => k !== "user_id" && !isEmpty(v)).length + imageFiles.length;
}

export async function readDraft(file: string): Promise<Draft | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const d = JSON.parse(text) as Partial<Draft>;
    if (d.version !== VERSION || typeof d.answers !== "object" || d.answers === null || Array.isArray(d.answers))
      return undefined;
    return {
      version: VERSION,
      savedAt: typeof d.savedAt === "string" ? d.savedAt : "",
      env: String(d.env ?? ""),
      owner: typeof d.owner === "number" ? d.owner : null,
      answers: d.answers,
      aux: d.aux && typeof d.aux === "object" ? d.aux : {},
      imageFiles: Array.isArray(d.imageFiles) ? d.imageFiles.filter((f) => typeof f === "string") : [],
    };
  } catch {
    // A damaged draft is no draft: the wizard starts afresh (and the next Ctrl-C writes a good one).
    return undefined;
  }
}

/** Save the state as the draft (nothing when no answer was given yet). Returns whether a draft was written. */
export async function saveDraft(
  file: string,
  target: Pick<Target, "env" | "userId">,
  state: WizardState,
  now: Date,
): Promise<boolean> {
  const answers = Object.fromEntries(Object.entries(state.answers).filter(([k, v]) => k !== "user_id" && !isEmpty(v)));
  if (answerCount(answers, state.imageFiles) === 0) return false;
  const draft: Draft = {
    version: VERSION,
    savedAt: now.toISOString(),
    env: target.env,
    owner: target.userId ?? null,
    answers,
    aux: state.aux,
    imageFiles: state.imageFiles,
  };
  await mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
  const release = lockSync(file, { what: "the wizard draft" });
  try {
    await writeFileAtomic(file, `${JSON.stringify(draft, null, 2)}\n`, 0o600);
  } finally {
    release();
  }
  return true;
}

export async function deleteDraft(file: string): Promise<void> {
  try {
    const release = lockSync(file, { what: "the wizard draft" });
    try {
      await rm(file, { force: true });
    } finally {
      release();
    }
  } catch {
    // no data dir yet, or not ours to remove: nothing to discard
  }
}

/** "25 Nov 2026 23:14" in the local time zone (for the resume question). */
export function draftTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "an earlier run";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
