import { access, constants, open, readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { describeRequest } from "../../api/dry-run.js";
import { contentTypeFor, type FilePart } from "../../api/encode.js";
import { MalformedResponseError } from "../../api/errors.js";
import * as imageTypes from "../../api/image-type.js";
import { fsReason, InputError, RentctlError } from "../../base/errors.js";
import { requireUser } from "../../config/target.js";
import { UPLOAD_MAX_FILES, UPLOAD_PART_NAME } from "../../contract/operations.js";
import type { JsonObject } from "../../contract/records.js";
import { replaceRecord } from "../../gateway/records.js";
import { uploadParts } from "../../gateway/vehicles.js";
import { VEHICLE } from "../../resources/resource.js";
import type { OpContext, OpOptions, WriteProgress } from "../context.js";
import { sendingTo } from "../context.js";

/** A file to upload: a path, or bytes with a file name (the name's extension gives the content type). */
export type ImageFile = string | { name: string; data: Uint8Array };

/** What an upload reports: the target before the first request, then files done after each request. */
export type UploadProgress = WriteProgress | { kind: "uploaded"; done: number; total: number };

export interface UploadImagesResult {
  /** The new image ids, in the order of the files. */
  ids: number[];
  /** A dry run: the request of each batch (nothing was sent). */
  dryRun?: { requests: JsonObject[] };
}

/** How `checkFiles` checks: also that each file's content is an image (default), unless `anyType`. */
export interface CheckFilesOptions {
  /** Upload files whose content is no image this tool knows (a format it does not know). */
  anyType?: boolean;
  /** How the front end says "upload it anyway" (default: the CLI's `--any-type`; the library's `LIBRARY_ANY_TYPE_HINT`). */
  anyTypeHint?: string;
}

/** The hint of a file that is no image, in the CLI's words and in the library's. */
export const CLI_ANY_TYPE_HINT = "an image of another format: --any-type uploads it as it is";
export const LIBRARY_ANY_TYPE_HINT = "an image of another format: pass { anyType: true } to upload it as it is";

/** Files that are no image by their content: one problem each. */
function notImage(field: string): { field: string; message: string } {
  const { IMAGE_KINDS } = imageTypes;
  return { field, message: `is no image by its content (not ${IMAGE_KINDS})` };
}

/**
 * Every file must exist, be a readable regular file, not be empty and (unless `anyType`) be an
 * image by its content (src/api/image-type.ts); all problems listed, nothing sent.
 */
export async function checkFiles(files: ImageFile[], opts: CheckFilesOptions = {}): Promise<void> {
  const problems: Array<{ field: string; message: string }> = [];
  for (const f of files) {
    if (typeof f !== "string") {
      if (!opts.anyType && !imageTypes.imageTypeOf(f.data.subarray(0, imageTypes.IMAGE_HEAD_BYTES)))
        problems.push(notImage(f.name));
      continue;
    }
    const p = f;
    try {
      const s = await stat(p);
      if (!s.isFile()) problems.push({ field: p, message: "is not a regular file" });
      else if (s.size === 0) problems.push({ field: p, message: "is empty" });
      else {
        await access(p, constants.R_OK);
        if (!opts.anyType) {
          const fh = await open(p, "r");
          try {
            const head = new Uint8Array(imageTypes.IMAGE_HEAD_BYTES);
            const { bytesRead } = await fh.read(head, 0, head.length, 0);
            if (!imageTypes.imageTypeOf(head.subarray(0, bytesRead))) problems.push(notImage(p));
          } finally {
            await fh.close();
          }
        }
      }
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
      {
        details: problems,
        ...(problems.some((x) => x.message.startsWith("is no image"))
          ? { hint: opts.anyTypeHint ?? CLI_ANY_TYPE_HINT }
          : {}),
      },
    );
}

export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Upload images in batches of at most 10 per request (files checked first, their content an
 * image unless `anyType`: all problems listed, nothing sent). An answer without image ids is an error naming the ids uploaded before it.
 */
export async function uploadImages(
  ctx: OpContext,
  input: { files: ImageFile[]; dryRun?: boolean } & CheckFilesOptions,
  opts: OpOptions<UploadProgress> = {},
): Promise<UploadImagesResult> {
  const files = input.files;
  if (!Array.isArray(files) || files.length === 0) throw new InputError("upload needs at least one file");
  await checkFiles(files, { anyType: input.anyType, anyTypeHint: input.anyTypeHint });
  const nameOf = (f: ImageFile) => (typeof f === "string" ? basename(f) : f.name);
  const groups = batches(files, UPLOAD_MAX_FILES);
  const target = await ctx.target();
  if (input.dryRun) {
    const userId = await requireUser(ctx);
    const requests = groups.map((g) =>
      describeRequest(
        target,
        "vehicles.upload",
        { user_id: userId },
        {
          files: g.map((f) => ({
            field: UPLOAD_PART_NAME,
            filename: nameOf(f),
            contentType: contentTypeFor(nameOf(f)),
            data: new Uint8Array(),
          })),
        },
      ),
    );
    return { ids: [], dryRun: { requests } };
  }
  opts.onProgress?.({
    kind: "sending",
    target,
    what: `uploading ${files.length} image${files.length === 1 ? "" : "s"} in ${groups.length} request${groups.length === 1 ? "" : "s"}`,
  });
  const ids: number[] = [];
  let done = 0;
  for (const g of groups) {
    const parts: FilePart[] = [];
    for (const f of g)
      parts.push({
        field: UPLOAD_PART_NAME,
        filename: nameOf(f),
        contentType: contentTypeFor(nameOf(f)),
        data: typeof f === "string" ? await readImage(f) : f.data,
      });
    const got = await uploadParts(ctx, parts, opts.signal);
    if (got.length === 0) {
      // An answer with no image ids is unusable (as import treats it): never "0 images uploaded", never an attach of nothing.
      throw new MalformedResponseError(
        `the server answered the upload of ${g.length} file${g.length === 1 ? "" : "s"} with no image ids`,
        {
          hint: ids.length
            ? `images uploaded before it: ids ${ids.join(", ")}; check \`rentctl vehicle get\` before retrying`
            : "nothing was attached; retry, or check the server's answer with -v",
        },
      );
    }
    if (got.length !== g.length) ctx.msg.warn(`the server reported ${got.length} image ids for ${g.length} files`);
    ids.push(...got);
    done += g.length;
    opts.onProgress?.({ kind: "uploaded", done, total: files.length });
  }
  return { ids };
}

async function readImage(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new InputError(`cannot upload ${path}: ${fsReason(e)} (nothing was sent)`);
  }
}

/**
 * Attach uploaded images to a vehicle through the safe edit (its current images plus the new
 * ones). A failure says the images were uploaded and how to attach them later.
 */
export async function attachImages(
  ctx: OpContext,
  input: { vehicleId: number; ids: number[] },
  opts: OpOptions<WriteProgress> = {},
): Promise<{ changed: boolean; undoOp?: string }> {
  const { vehicleId, ids } = input;
  try {
    const r = await replaceRecord(
      ctx,
      VEHICLE,
      vehicleId,
      (current) => ({
        vehicle_images: [...(Array.isArray(current.vehicle_images) ? current.vehicle_images : []), ...ids],
      }),
      { onSend: sendingTo(opts) },
    );
    return { changed: r.sent !== undefined, ...(r.undoOp ? { undoOp: r.undoOp } : {}) };
  } catch (e) {
    if (e instanceof RentctlError) {
      e.message = `the images were uploaded (ids ${ids.join(", ")}) but attaching them to vehicle ${vehicleId} failed: ${e.message}`;
      e.hint = `attach them later: add ${ids.join(", ")} to the vehicle_images that \`rentctl vehicle get ${vehicleId} -o json\` shows, with \`rentctl vehicle edit ${vehicleId} --set vehicle_images=ID\` repeated for each image`;
    }
    throw e;
  }
}
