import { readRecordFile } from "../commands/input.js";
import type { Deps } from "../deps.js";
import { requireUser } from "../deps.js";
import { InterruptedError, UsageError } from "../errors.js";
import { printCreated } from "../resources/create.js";
import { runWizard } from "./flow.js";
import { type WizardPrompts, withInterrupt, wizardPrompts } from "./prompts.js";

/**
 * `rentctl vehicle wizard` / `vehicle create -i`: a guided, interactive
 * create. Prompts render on stderr; stdout carries only the new id (or the
 * record with -o json). Ctrl-C at any prompt exits 130 with nothing created.
 *
 * `prompts` replaces the terminal prompts (tests); so does
 * `setWizardPromptsFactory` from src/wizard/prompts.ts.
 */
export async function run(
  deps: Deps,
  opts: { fromFile?: string; save?: string },
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
  let result: Awaited<ReturnType<typeof runWizard>>;
  try {
    result = await runWizard(deps, withInterrupt(prompts ?? wizardPrompts(deps)), {
      prefill,
      source: opts.fromFile,
      save: opts.save,
    });
  } catch (e) {
    // Ctrl-C at a prompt: nothing is sent before "Create", so nothing was.
    if (e instanceof InterruptedError)
      deps.io.stderr.write(`\n${deps.color.yellow("cancelled, nothing was created")}\n`);
    throw e;
  }
  if (result) await printCreated(deps, "vehicle", result);
}
