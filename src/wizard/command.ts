import { AbortedError, fsReason, InterruptedError, UsageError } from "../base/errors.js";
import { readRecordFile } from "../commands/input.js";
import { printCreated } from "../commands/record-output.js";
import { requireUser } from "../config/target.js";
import type { Deps } from "../deps.js";
import type { WizardState } from "./ask.js";
import { answerCount, type Draft, deleteDraft, draftFile, draftTime, readDraft, saveDraft } from "./draft.js";
import { runWizard } from "./flow.js";
import { type WizardPrompts, withInterrupt, wizardPrompts } from "./prompts.js";

/**
 * `rentctl vehicle wizard` / `vehicle create -i`: a guided, interactive
 * create. Prompts render on stderr; stdout carries only the new id (or the
 * record with -o json). Ctrl-C at any prompt exits 130 with nothing created,
 * and keeps the answers so far as a draft (src/wizard/draft.ts) that the next
 * run offers to resume; `--fresh` discards it, a create deletes it.
 *
 * `prompts` replaces the terminal prompts (tests); so does
 * `setWizardPromptsFactory` from src/wizard/prompts.ts.
 */
export async function run(
  deps: Deps,
  opts: { fromFile?: string; save?: string; fresh?: boolean; withIds?: boolean },
  prompts?: WizardPrompts,
): Promise<void> {
  if (!deps.io.stdinTTY) {
    throw new UsageError("the vehicle wizard needs an interactive terminal (stdin is not a TTY)", {
      hint: "create from a file instead: rentctl vehicle create --from-file FILE (a wizard run with --save FILE writes one)",
    });
  }
  if (opts.fromFile === "-") {
    throw new UsageError("--from-file -: stdin is the terminal the wizard asks on", {
      hint: "give a file: rentctl vehicle wizard --from-file car.json",
    });
  }
  const prefill = opts.fromFile ? await readRecordFile(deps, opts.fromFile) : {};
  // Fail before the questions, not after them: an owner is needed to create.
  await requireUser(deps);
  const target = await deps.target();
  const draftPath = draftFile(deps.paths.dataDir, target);
  const p = withInterrupt(prompts ?? wizardPrompts(deps));

  // The draft of an earlier run that was left with Ctrl-C: offered unless --fresh (which discards it)
  // or --from-file (the file is where this run starts; the draft stays for a later run).
  let resumed: Draft | undefined;
  if (opts.fresh) await deleteDraft(draftPath);
  else if (!opts.fromFile) {
    const draft = await readDraft(draftPath);
    if (draft) {
      const n = answerCount(draft.answers, draft.imageFiles);
      const yes = await p.confirm({
        message: `Resume the draft from ${draftTime(draft.savedAt)} (${n} answer${n === 1 ? "" : "s"})?`,
        default: true,
      });
      if (yes) resumed = draft;
      else {
        await deleteDraft(draftPath);
        deps.msg.info("draft discarded: starting afresh");
      }
    }
  }

  let kept = 0;
  const keep = async (state: WizardState) => {
    try {
      if (await saveDraft(draftPath, target, state, new Date(deps.now())))
        kept = answerCount(state.answers, state.imageFiles);
    } catch (e) {
      deps.msg.warn(`cannot keep the answers as a draft: ${fsReason(e)}`);
    }
  };
  let result: Awaited<ReturnType<typeof runWizard>>;
  try {
    result = await runWizard(deps, p, {
      prefill: resumed ? resumed.answers : prefill,
      aux: resumed?.aux,
      imageFiles: resumed?.imageFiles,
      source: opts.fromFile,
      save: opts.save,
      withIds: opts.withIds,
      keep,
    });
  } catch (e) {
    // Ctrl-C at a prompt: nothing is sent before "Create", so nothing was.
    if (e instanceof InterruptedError) {
      deps.io.stderr.write(`\n${deps.color.yellow("cancelled, nothing was created")}\n`);
      if (kept)
        deps.io.stderr.write(
          `${deps.color.dim(`${kept} answer${kept === 1 ? "" : "s"} kept as a draft: \`rentctl vehicle wizard\` resumes them (--fresh starts over)`)}\n`,
        );
    }
    // "Cancel" in the review is a choice, not an accident: nothing to resume.
    if (e instanceof AbortedError) await deleteDraft(draftPath);
    throw e;
  }
  // Created: the draft has served (a dry run created nothing: the draft stays for the real run).
  if (!deps.flags.dryRun) await deleteDraft(draftPath);
  if (result) await printCreated(deps, "vehicle", result);
}
