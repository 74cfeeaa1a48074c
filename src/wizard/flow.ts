import { access } from "node:fs/promises";
import { shownAddress } from "../api/address.js";
import type { EncodableRecord } from "../api/encode.js";
import { ApiValidationError } from "../api/errors.js";
import {
  AbortedError,
  type FieldDetail,
  fsReason,
  InputError,
  InterruptedError,
  RentctlError,
} from "../base/errors.js";
import { writeFileAtomic } from "../base/temp-files.js";
import { uploadImages } from "../commands/image/upload.js";
import { printCreateDryRun } from "../commands/record-output.js";
import { crossFieldProblems, isEmpty, validateRecord } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";
import { ACCOUNT_BOUND } from "../files/fields.js";
import { createOne } from "../gateway/records.js";
import { refuseTakenRegistration } from "../ops/vehicle/registration.js";
import { formatError } from "../output/error.js";
import type { CreateResult } from "../resources/create.js";
import { prepareVehicle } from "../resources/create.js";
import { type Resource, VEHICLE } from "../resources/resource.js";
import { Ask, toInts, type WizardState } from "./ask.js";
import { WizardCatalogs } from "./catalogs.js";
import type { WizardPrompts } from "./prompts.js";
import { renderReview, reviewWarnings } from "./review.js";
import { SECTIONS, type Section, sectionOf } from "./sections.js";

export interface WizardOptions {
  /** Answers to start from (wire names), e.g. from `--from-file`. */
  prefill?: Record<string, unknown>;
  /** Where the prefill came from (named when the wizard goes straight to the review). */
  source?: string;
  /** Also write the answers here (JSON, wire names) when confirming. */
  save?: string;
  /** Files the wizard writes keep account-bound ids (uploaded images, extras); default: left out. */
  withIds?: boolean;
  /** A resumed draft's steps that are not fields (brand, model) and its image files. */
  aux?: WizardState["aux"];
  imageFiles?: string[];
  /** Keep the answers so far (after each section, and when the wizard is interrupted). */
  keep?: (state: WizardState) => Promise<void>;
}

type Action = "create" | "edit" | "save" | "cancel";

/** The answers as a record for `vehicle create --from-file` (wire names; user_id is the profile's). */
export function answersRecord(state: WizardState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state.answers)) if (k !== "user_id" && !isEmpty(v)) out[k] = v;
  return out;
}

/**
 * Save the answers to a file (the review's "save" and `--save`). Ids that
 * belong to this account (uploaded image ids, extras' ids) are left out
 * unless `withIds`, as `vehicle export` does: the file may be read by
 * another account, where they would name someone else's images.
 */
export async function saveAnswers(deps: Deps, file: string, state: WizardState, withIds = false): Promise<void> {
  const record = answersRecord(state);
  const left = withIds ? [] : [...ACCOUNT_BOUND].filter((k) => k in record);
  for (const k of left) delete record[k];
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, 0o644);
  deps.msg.success(`answers saved to ${file} (use: rentctl vehicle create --from-file ${file})`);
  for (const k of left)
    deps.msg.warn(
      `${k} (${toInts(state.answers[k]).join(", ")}) not in ${file}: these ids belong to this account (--with-ids keeps them)`,
    );
  if (state.imageFiles.length)
    deps.msg.warn(
      `the ${state.imageFiles.length} image file(s) are not in ${file}: they are uploaded when you confirm (or attach later with \`rentctl image upload FILE --attach ID\`)`,
    );
}

/** Every answer known: the contract's rules all pass on the prefill alone (the questions would change nothing). */
function isComplete(answers: Record<string, unknown>, userId: number | undefined): boolean {
  if (Object.keys(answers).length === 0) return false;
  const { record, problems } = validateRecord({ ...answers, user_id: userId ?? answers.user_id }, VEHICLE_FIELDS, {
    requireRequired: true,
    allowUnknown: true,
  });
  return problems.length === 0 && crossFieldProblems(record).length === 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The whole wizard: every section once, then the review loop (create, edit a
 * section, save, cancel). Nothing is sent before "create": images are
 * uploaded then, and a rejected create comes back to the review with the
 * field problems shown, answers intact.
 *
 * Returns the created vehicle, or undefined on a dry run.
 */
export async function runWizard(
  deps: Deps,
  prompts: WizardPrompts,
  opts: WizardOptions = {},
): Promise<CreateResult | undefined> {
  const state: WizardState = {
    answers: { ...(opts.prefill ?? {}) },
    aux: { ...(opts.aux ?? {}) },
    imageFiles: [...(opts.imageFiles ?? [])],
  };
  try {
    return await walk(deps, prompts, opts, state);
  } catch (e) {
    if (e instanceof InterruptedError) await opts.keep?.(state);
    throw e;
  }
}

async function walk(
  deps: Deps,
  prompts: WizardPrompts,
  opts: WizardOptions,
  state: WizardState,
): Promise<CreateResult | undefined> {
  const cat = new WizardCatalogs(deps);
  const q = new Ask(prompts, state, cat, deps);
  const c = deps.color;
  const heading = (s: Section) => deps.io.stderr.write(`\n${c.bold.cyan(s.title)}\n`);

  const target = await deps.target();
  const env = target.env === "production" ? c.red.bold("production") : c.cyan(target.env);
  const owner = target.userId !== undefined ? ` as owner ${target.userId}` : "";
  deps.io.stderr.write(
    `${c.bold("New vehicle")} on ${env}${owner} ${c.dim(`· ${shownAddress(target)}`)}\n${c.dim("Ctrl-C leaves without creating anything (the answers are kept) · nothing is sent before the review")}\n`,
  );
  if (isComplete(state.answers, target.userId)) {
    deps.io.stderr.write(
      `${c.dim(`every answer is known${opts.source ? ` from ${opts.source}` : ""}: straight to the review ("Edit a section" changes one)`)}\n`,
    );
    await cat.fillNames(state.answers, q.segment());
  } else {
    for (const s of SECTIONS) {
      heading(s);
      await s.ask(q);
      // Between two prompts a Ctrl-C is a plain SIGINT (no prompt to catch it): what is kept survives it.
      await opts.keep?.(state);
    }
  }

  let problems: FieldDetail[] = [];
  for (;;) {
    await renderReview(deps, state, cat, problems);
    for (const w of reviewWarnings(state.answers)) deps.msg.warn(w);
    const action = await prompts.select<Action>({
      message: "What now?",
      choices: [
        { name: "Create the vehicle", value: "create" },
        { name: "Edit a section", value: "edit" },
        { name: "Save the answers to a file", value: "save" },
        { name: "Cancel (nothing is created)", value: "cancel" },
      ],
      default: problems.length ? "edit" : "create",
    });

    if (action === "cancel") throw new AbortedError("cancelled, nothing was created");

    if (action === "edit") {
      const first = problems.map((p) => sectionOf(p.field)).find((s) => s !== undefined);
      const key = await prompts.select<string>({
        message: "Which section?",
        choices: [
          ...SECTIONS.map((s) => ({ name: s.title, value: s.key })),
          { name: "(back to the review)", value: "" },
        ],
        default: first?.key ?? SECTIONS[0]!.key,
      });
      const section = SECTIONS.find((s) => s.key === key);
      if (section) {
        heading(section);
        await section.ask(q);
        problems = problems.filter((p) => !section.fields.includes(p.field));
      }
      continue;
    }

    if (action === "save") {
      const file = (
        await prompts.input({
          message: "Save to file",
          default: opts.save ?? "vehicle.json",
          validate: (s) => (s.trim() ? true : "a file name is needed"),
        })
      ).trim();
      if (
        (await exists(file)) &&
        !(await prompts.confirm({ message: `${file} exists. Overwrite it?`, default: false }))
      )
        continue;
      try {
        await saveAnswers(deps, file, state, opts.withIds);
      } catch (e) {
        deps.msg.warn(`cannot write ${file}: ${fsReason(e)}`);
      }
      continue;
    }

    // create
    try {
      const checked = await prepareVehicle(deps, answersRecord(state));
      await refuseTakenRegistration(deps, checked as Record<string, unknown>);
      if (state.imageFiles.length) {
        const ids = await uploadImages(deps, state.imageFiles);
        if (!deps.flags.dryRun) {
          // Kept in the answers: a retry after a rejected create does not upload them again.
          state.answers.vehicle_images = [...toInts(state.answers.vehicle_images), ...ids];
          state.imageFiles = [];
          deps.msg.success(`${ids.length} image${ids.length === 1 ? "" : "s"} uploaded (ids ${ids.join(", ")})`);
        }
      }
      const record = await prepareVehicle(deps, answersRecord(state));
      if (opts.save) await saveAnswers(deps, opts.save, state, opts.withIds);
      return await createRecord(deps, VEHICLE, record);
    } catch (e) {
      if (e instanceof InterruptedError || !(e instanceof RentctlError)) throw e;
      deps.io.stderr.write(formatError(e, deps.color));
      problems = e.details.length ? e.details : [];
      if (!(e instanceof InputError || e instanceof ApiValidationError))
        deps.msg.warn(
          "not created here; if the request reached the server, check `rentctl vehicle list` before retrying",
        );
    }
  }
}

/**
 * The wizard's create: --dry-run from the global flags and the request printed, the target
 * named before sending (the gateway's one create underneath).
 */
async function createRecord(deps: Deps, res: Resource, record: EncodableRecord): Promise<CreateResult | undefined> {
  const r = await createOne(deps, res, record, {
    dryRun: Boolean(deps.flags.dryRun),
    onSend: (t, what) => deps.msg.acting(t, what),
    trace: deps.flags.verbose ? (line) => deps.io.stderr.write(deps.color.dim(`${line}\n`)) : undefined,
  });
  if (r.dryRun) {
    await printCreateDryRun(deps, res, r.dryRun.request);
    return undefined;
  }
  return r;
}
