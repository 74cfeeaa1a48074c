import type { Deps } from "../../deps.js";
import { vehicleId as resolve } from "../../ops/handles.js";
import { attachImages, checkFiles as checkFilesFromUpload, uploadImages as upload } from "../../ops/image/upload.js";
import { fetchRecord, VEHICLE } from "../../resources/safe-edit.js";
import { arg, flag } from "../flags.js";
import { quietDryRun } from "../record-output.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "upload",
  description: "Upload images in batches of at most 10 per request; prints the new image ids",
  args: { files: arg.variadic("image files", { required: true }) },
  flags: {
    attach: flag.string(
      "--attach <vehicle>",
      "add the new images to this vehicle (id or registration number): its vehicle_images (safe edit)",
    ),
    anyType: flag.bool(
      "--any-type",
      "upload files whose content is no JPEG, PNG, GIF, WebP, HEIC or AVIF (default: refuse them, exit 2, nothing sent)",
    ),
  },
  examples: [
    "rentctl image upload front.jpg back.jpg",
    "rentctl image upload photos/*.jpg --attach 1",
    "rentctl image upload a.jpg -q",
  ],
  run: (deps, args, opts) => run(deps, args.files, opts),
});

export { batches, checkFiles } from "../../ops/image/upload.js";

/**
 * Upload images (the op) with the CLI's rendering: a dry run's requests on stdout, the target
 * and a progress count on stderr. Returns the ids (the wizard attaches them to a new vehicle).
 */
export async function uploadImages(deps: Deps, files: string[], o: { anyType?: boolean } = {}): Promise<number[]> {
  const progress = deps.io.stderrTTY && !deps.flags.quiet;
  let shown = false;
  try {
    const r = await upload(
      deps,
      { files, dryRun: deps.flags.dryRun, anyType: o.anyType },
      {
        onProgress: (p) => {
          if (p.kind === "sending") deps.msg.acting(p.target, p.what);
          else if (progress) {
            shown = true;
            deps.io.stderr.write(`\r${deps.color.dim(`uploaded ${p.done}/${p.total}`)}`);
          }
        },
      },
    );
    // -q: a dry run prints the ids it would change, and uploads have none yet
    if (r.dryRun && !(await quietDryRun(deps, [])))
      for (const request of r.dryRun.requests) await deps.out.record(request);
    return r.ids;
  } finally {
    if (shown) deps.io.stderr.write("\r\x1b[K");
  }
}

export async function run(deps: Deps, files: string[], opts: { attach?: string; anyType?: boolean }): Promise<void> {
  // The files first (a file that is no image is refused before anything is read or sent).
  await checkFilesFromUpload(files, { anyType: opts.anyType });
  let vehicleId: number | undefined;
  if (opts.attach !== undefined) {
    vehicleId = await resolve(deps, opts.attach);
    // Check the vehicle first: uploading for a vehicle that does not exist would leave orphan images.
    if (!deps.flags.dryRun) await fetchRecord(deps, VEHICLE, vehicleId);
  }
  const ids = await uploadImages(deps, files, { anyType: opts.anyType });
  if (deps.flags.dryRun) return;
  if (deps.settings().output === "table" || deps.flags.quiet) await deps.out.ids(ids);
  else await deps.out.list(ids.map((id, i) => ({ id, file: files[i] ?? null })));
  deps.msg.success(`${ids.length} image${ids.length === 1 ? "" : "s"} uploaded`);
  if (vehicleId !== undefined && ids.length) {
    const r = await attachImages(deps, { vehicleId, ids }, { onProgress: (p) => deps.msg.acting(p.target, p.what) });
    if (r.changed)
      deps.msg.success(`attached to vehicle ${vehicleId}${r.undoOp ? ` · undo with: rentctl undo ${r.undoOp}` : ""}`);
  }
}
