import { describeRequest } from "../api/dry-run.js";
import type { EncodableRecord } from "../api/encode.js";
import { ApiError } from "../api/errors.js";
import { createdId, type JsonObject, unwrapRecord } from "../contract/records.js";
import { crossFieldProblems, validateRecord } from "../contract/validate.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
import type { Deps } from "../deps.js";
import { requireUser } from "../deps.js";
import { InputError } from "../errors.js";
import { EXTRA, type Resource, VEHICLE } from "./resource.js";
import { problemsError } from "./safe-edit.js";

/** Fill the owner and locale, check every contract rule; throws with every problem listed by field. */
export async function prepareVehicle(deps: Deps, values: Record<string, unknown>): Promise<EncodableRecord> {
  const userId = await requireUser(deps);
  if (values.user_id !== undefined && String(values.user_id) !== String(userId)) {
    throw new InputError(`user_id ${values.user_id} is not the configured owner ${userId}`, {
      hint: "leave user_id out: rentctl fills it from the profile (or pass --user)",
    });
  }
  const input = { ...values, user_id: userId, locale_id: values.locale_id ?? (await deps.locale()) };
  const { record, problems } = validateRecord(input, VEHICLE_FIELDS, { requireRequired: true, allowUnknown: true });
  problems.push(...crossFieldProblems(record));
  if (problems.length) throw problemsError(problems, "vehicle");
  return record;
}

export interface CreateResult {
  id?: number;
  record: JsonObject;
}

/** Create a record from checked input: the single create path (flags, file, wizard, undo) of every resource. */
export async function createRecord(
  deps: Deps,
  res: Resource,
  record: EncodableRecord,
): Promise<CreateResult | undefined> {
  const target = await deps.target();
  if (deps.flags.dryRun) {
    await deps.out.record(describeRequest(target.baseUrl, res.createOp, record));
    const who = target.userId !== undefined ? ` as owner ${target.userId}` : "";
    deps.msg.info(
      deps.color.dim(
        `dry run: would create ${res.noun === "extra" ? "an" : "a"} ${res.noun} on ${target.env}${who}; nothing was sent`,
      ),
    );
    return undefined;
  }
  deps.msg.acting(target, `creating ${res.noun === "extra" ? "an" : "a"} ${res.noun}`);
  const client = await deps.client();
  let res2: Awaited<ReturnType<typeof client.call>>;
  try {
    res2 = await client.call(res.createOp, record);
  } catch (e) {
    if (e instanceof ApiError && e.answerLost && res.kind === "vehicle") await explainLostCreate(deps, e, record);
    throw e;
  }
  return { id: createdId(res2.decoded.body, res.kind), record: unwrapRecord(res2.decoded.body, res.kind) };
}

/**
 * The answer to a create was lost, so the vehicle may exist now. Look it up
 * by registration number (the fleet's identity) and say what was found; the
 * create is never sent again on its own.
 */
async function explainLostCreate(deps: Deps, e: ApiError, record: EncodableRecord): Promise<void> {
  const { identityOf } = await import("../contract/identity.js");
  const identity = identityOf(record as Record<string, unknown>);
  e.message = "the answer to the create was lost: the server may have created the vehicle";
  if (!identity) {
    e.hint = "check with `rentctl vehicle list` before creating it again";
    return;
  }
  const reg = String(record.vehicle_reg_number);
  if (deps.flags.verbose)
    deps.io.stderr.write(deps.color.dim(`checking whether vehicle ${reg} was created: listing the account\n`));
  try {
    const { findByIdentity } = await import("./list.js");
    const found = await findByIdentity(deps, record as Record<string, unknown>);
    if (found.length) {
      e.details = [
        { field: "vehicle_reg_number", message: `${reg} is in the account now: vehicle ${found.join(", ")}` },
      ];
      e.hint = `it was most likely created: check with \`rentctl vehicle get ${found[0]}\` instead of creating it again`;
      return;
    }
    e.hint = `no vehicle ${reg} is in the account: it was most likely not created (check with \`rentctl vehicle list\` before retrying)`;
  } catch {
    e.hint = "check with `rentctl vehicle list` before creating it again";
  }
}

/** Create a vehicle from checked input. */
export function createVehicle(deps: Deps, record: EncodableRecord): Promise<CreateResult | undefined> {
  return createRecord(deps, VEHICLE, record);
}

/** Create an extra from checked input. */
export function createExtra(deps: Deps, record: EncodableRecord): Promise<CreateResult | undefined> {
  return createRecord(deps, EXTRA, record);
}

/** Print a created resource: the id (`-q`, table) or the record (json, yaml, …). */
export async function printCreated(deps: Deps, noun: string, result: CreateResult): Promise<void> {
  const format = deps.settings().output;
  if (deps.flags.raw || (format !== "table" && !deps.flags.quiet)) {
    await deps.out.record({ ...(result.id !== undefined ? { id: result.id } : {}), ...result.record });
  } else if (result.id !== undefined) {
    await deps.out.ids([result.id]);
  }
  if (result.id !== undefined) deps.msg.success(`${noun} ${result.id} created`);
  else deps.msg.warn(`${noun} created, but the response carried no id`);
}
