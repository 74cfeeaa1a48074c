import type { CancelSignal } from "../api/cancel.js";
import type { CallResult, RawRequest, RawResponse } from "../api/client.js";
import type { EncodableRecord, FilePart } from "../api/encode.js";
import { WRITE_GRANT } from "../api/write-grant.js";
import type { CoreDeps } from "../deps.js";

/**
 * The gateway's own access to the client's write operations: the one module
 * that holds the write grant. Everything else in src/gateway/ sends through
 * these two functions; nothing outside src/gateway/ may import them.
 */

/** One write operation of the contract (the client's encoding, retry policy, errors and decoding). */
export async function sendWrite(
  deps: CoreDeps,
  opId: string,
  params: EncodableRecord,
  extra: { files?: FilePart[]; signal?: CancelSignal } = {},
): Promise<CallResult> {
  const client = await deps.client();
  return client.call(opId, params, { ...extra, grant: WRITE_GRANT });
}

/**
 * `rentctl api -X POST …`: a raw request, any path, as the user typed it. The
 * raw escape hatch of the tool (as `gh api`): it keeps no undo history and
 * checks nothing; every other write goes through the gateway's functions.
 */
export async function sendRaw(deps: CoreDeps, req: Omit<RawRequest, "grant">): Promise<RawResponse> {
  const client = await deps.client();
  return client.request({ ...req, grant: WRITE_GRANT });
}
