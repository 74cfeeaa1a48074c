import { basename } from "node:path";
import { describeRequest } from "../../api/dry-run.js";
import { contentTypeFor, type FilePart } from "../../api/encode.js";
import { MalformedResponseError } from "../../api/errors.js";
import { UPLOAD_MAX_FILES, UPLOAD_PART_NAME } from "../../contract/operations.js";
import type { Deps } from "../../deps.js";
import { InputError, RentctlError } from "../../errors.js";
import type { UpdateResult } from "../../gateway/records.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "upload",
  description: "Upload images in batches of at most 10 per request; prints the new image ids",
  args: { files: arg.variadic("image files", { required: true }) },
  flags: {
    attach: flag.string("--attach <vehicle-id>", "add the new images to this vehicle's vehicle_images (safe edit)"),
  },
  examples: [
    "rentctl image upload front.jpg back.jpg",
    "rentctl image upload photos/*.jpg --attach 1",
    "rentctl image upload a.jpg -q",
  ],
  run: (deps, args, opts) => run(deps, args.files, opts),
});

/** Every file must exist, be a readable regular file and not be empty; all problems listed, nothing sent. */
export async function checkFiles(paths: string[]): Promise<void> {
  const { access, constants, stat } = await import("node:fs/promises");
  const problems: Array<{ field: string; message: string }> = [];
  for (const p of paths) {
    try {
      const s = await stat(p);
      if (!s.isFile()) problems.push({ field: p, message: "is not a regular file" });
      else if (s.size === 0) problems.push({ field: p, message: "is empty" });
      else await access(p, constants.R_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push({
        field: p,
        message: code === "ENOENT" ? "does not exist" : code === "EACCES" ? "is not readable" : String(code),
      });
    }
  }
  if (problems.length)
    throw new InputError(
      `cannot upload: ${problems.length} file problem${problems.length === 1 ? "" : "s"} (nothing was sent)`,
      { details: problems },
    );
}

export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Upload images in batches of at most 10 per request; print the created ids.
 * Returns the ids (the wizard attaches them to a new vehicle).
 */
export async function uploadImages(deps: Deps, files: string[]): Promise<number[]> {
  await checkFiles(files);
  const { requireUser } = await import("../../deps.js");
  const userId = await requireUser(deps);
  const target = await deps.target();
  const groups = batches(files, UPLOAD_MAX_FILES);
  if (deps.flags.dryRun) {
    for (const g of groups) {
      const parts: FilePart[] = g.map((f) => ({
        field: UPLOAD_PART_NAME,
        filename: basename(f),
        contentType: contentTypeFor(f),
        data: new Uint8Array(),
      }));
      await deps.out.record(describeRequest(target.baseUrl, "vehicles.upload", { user_id: userId }, { files: parts }));
    }
    return [];
  }
  deps.msg.acting(
    target,
    `uploading ${files.length} image${files.length === 1 ? "" : "s"} in ${groups.length} request${groups.length === 1 ? "" : "s"}`,
  );
  const { readFile } = await import("node:fs/promises");
  const { uploadParts } = await import("../../gateway/vehicles.js");
  const ids: number[] = [];
  const progress = deps.io.stderrTTY && !deps.flags.quiet;
  let done = 0;
  for (const g of groups) {
    const parts: FilePart[] = [];
    for (const f of g)
      parts.push({
        field: UPLOAD_PART_NAME,
        filename: basename(f),
        contentType: contentTypeFor(f),
        data: await readFile(f),
      });
    const got = await uploadParts(deps, parts);
    if (got.length === 0) {
      // An answer with no image ids is unusable (as import treats it): never "✓ 0 images uploaded", never an attach of nothing.
      if (progress) deps.io.stderr.write("\r\x1b[K");
      throw new MalformedResponseError(
        `the server answered the upload of ${g.length} file${g.length === 1 ? "" : "s"} with no image ids`,
        {
          hint: ids.length
            ? `images uploaded before it: ids ${ids.join(", ")}; check \`rentctl vehicle get\` before retrying`
            : "nothing was attached; retry, or check the server's answer with -v",
        },
      );
    }
    if (got.length !== g.length) deps.msg.warn(`the server reported ${got.length} image ids for ${g.length} files`);
    ids.push(...got);
    done += g.length;
    if (progress) deps.io.stderr.write(`\r${deps.color.dim(`uploaded ${done}/${files.length}`)}`);
  }
  if (progress) deps.io.stderr.write("\r\x1b[K");
  return ids;
}

export async function run(deps: Deps, files: string[], opts: { attach?: string }): Promise<void> {
  const { fetchRecord, VEHICLE } = await import("../../resources/safe-edit.js");
  let vehicleId: number | undefined;
  if (opts.attach !== undefined) {
    const { parseId } = await import("../ids.js");
    vehicleId = parseId(opts.attach, "--attach vehicle");
    // Check the vehicle first: uploading for a vehicle that does not exist would leave orphan images.
    if (!deps.flags.dryRun) await fetchRecord(deps, VEHICLE, vehicleId);
  }
  const ids = await uploadImages(deps, files);
  if (deps.flags.dryRun) return;
  if (deps.settings().output === "table" || deps.flags.quiet) await deps.out.ids(ids);
  else await deps.out.list(ids.map((id, i) => ({ id, file: files[i] ?? null })));
  deps.msg.success(`${ids.length} image${ids.length === 1 ? "" : "s"} uploaded`);
  if (vehicleId !== undefined && ids.length) {
    // Attach through the safe edit: the current images plus the new ones.
    const { guardedReplace } = await import("../../gateway/records.js");
    let r: UpdateResult;
    try {
      r = await guardedReplace(deps, VEHICLE, vehicleId, (current) => ({
        vehicle_images: [...(Array.isArray(current.vehicle_images) ? current.vehicle_images : []), ...ids],
      }));
    } catch (e) {
      if (e instanceof RentctlError) {
        e.message = `the images were uploaded (ids ${ids.join(", ")}) but attaching them to vehicle ${vehicleId} failed: ${e.message}`;
        e.hint = `attach them later: add ${ids.join(", ")} to the vehicle_images that \`rentctl vehicle get ${vehicleId} -o json\` shows, with \`rentctl vehicle edit ${vehicleId} --set vehicle_images=ID\` repeated for each image`;
      }
      throw e;
    }
    if (r.sent)
      deps.msg.success(`attached to vehicle ${vehicleId}${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`);
  }
}
