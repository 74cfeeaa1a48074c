import { operation } from "../contract/operations.js";
import type { JsonObject } from "../contract/records.js";
import { type AddressOf, shownAddress } from "./address.js";
import { type EncodableRecord, encodeForm, encodeQuery, type FilePart, toPairs } from "./encode.js";

/**
 * What `--dry-run` prints on stdout: the request that would be sent, with the
 * key redacted. Nothing is sent. `to` is the target (its shown address) or a base address.
 */
export function describeRequest(
  to: AddressOf | string,
  opIdOrMethod: string,
  params: EncodableRecord,
  opts: { path?: string; files?: FilePart[]; auth?: boolean } = {},
): JsonObject {
  const op = opts.path === undefined ? operation(opIdOrMethod) : undefined;
  const method = op ? op.method : opIdOrMethod.toUpperCase();
  const path = op ? op.path : opts.path!;
  const auth = op ? op.access === "auth" : Boolean(opts.auth);
  const isGet = method === "GET";
  const multipart = Boolean(opts.files?.length) || op?.body === "multipart";
  const out: JsonObject = {
    dry_run: true,
    method,
    url: `${shownAddress(to).replace(/\/+$/, "")}${path}${isGet ? encodeQuery(params) : ""}`,
    headers: {
      ...(auth ? { authorization: "Bearer ***" } : {}),
      ...(isGet ? {} : { "content-type": multipart ? "multipart/form-data" : "application/x-www-form-urlencoded" }),
    },
  };
  if (!isGet) {
    out.body = multipart ? toPairs(params).map(([k, v]) => `${k}=${v}`) : encodeForm(params);
    if (opts.files?.length) out.files = opts.files.map((f) => `${f.field}=@${f.filename} (${f.contentType})`);
  }
  return out;
}
