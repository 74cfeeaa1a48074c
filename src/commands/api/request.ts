import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { needsAuth } from "../../api/client.js";
import { describeRequest } from "../../api/dry-run.js";
import { contentTypeFor, type EncodableRecord, type FilePart } from "../../api/encode.js";
import { fsReason, InputError, UsageError } from "../../base/errors.js";
import { VERSION } from "../../base/version.js";
import { openApiDocument } from "../../contract/openapi.js";
import { findOperation, normalizePath, OPERATIONS } from "../../contract/operations.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { sendRaw } from "../../gateway/send.js";
import { loadYaml } from "../../output/yaml.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "api",
  description: "Call any v302 operation raw, with the same auth, encoding, errors and exit codes",
  args: { path: arg.optional("operation path, with or without /api/v302 (e.g. vehicles/brands)") },
  flags: {
    method: flag.string("-X, --method <method>", "HTTP method (default GET, or POST when -F is given)"),
    fields: flag.list(
      "-f, --field <key=value>",
      "add a field: query for GET, form body for POST (repeat; a repeated key is an array)",
    ),
    files: flag.list("-F, --file <key=@file>", "attach a file as a multipart part (repeat)"),
    list: flag.bool("--list", "list the operations of the contract"),
    openapi: flag.bool(
      "--openapi",
      "print the contract as an OpenAPI 3.1 document (json; yaml with -o yaml), generated from rentctl's operation table",
    ),
  },
  examples: [
    "rentctl api --list",
    "rentctl api --openapi > rentctl-v302.openapi.json",
    "rentctl api --openapi -o yaml",
    "rentctl api vehicles/brands -f segment_id=1",
    "rentctl api vehicles/list -f user_id=1001 -f locale_id=40 -f limit=5",
    "rentctl api vehicles/extras/switch -X POST -f extra_id=3",
    "rentctl api vehicles/upload -f user_id=1001 -F file=@car.jpg -F file=@back.jpg",
  ],
  run: (deps, args, opts) => run(deps, { path: args.path, ...opts }),
});

export interface ApiOptions {
  path?: string;
  method?: string;
  fields?: string[];
  files?: string[];
  list?: boolean;
  openapi?: boolean;
}

function splitKeyValue(s: string, flag: string): [string, string] {
  const i = s.indexOf("=");
  if (i <= 0) throw new UsageError(`${flag} ${JSON.stringify(s)}: expected KEY=VALUE`);
  return [s.slice(0, i), s.slice(i + 1)];
}

/** `-f a=1 -f a=2` (or `a[]=`) becomes an array; a single key stays a scalar. */
export function fieldsToRecord(fields: string[]): EncodableRecord {
  const rec: Record<string, string | string[]> = {};
  for (const f of fields) {
    const [k, v] = splitKeyValue(f, "-f");
    const prev = rec[k];
    if (prev === undefined) rec[k] = k.endsWith("[]") ? [v] : v;
    else rec[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return rec;
}

export async function run(deps: Deps, opts: ApiOptions): Promise<void> {
  if (opts.openapi) {
    if (opts.path || opts.list) throw new UsageError("--openapi takes no path and no --list");
    const doc = openApiDocument({ version: VERSION });
    if (deps.settings().output === "yaml") {
      const { stringify } = await loadYaml();
      deps.io.stdout.write(stringify(doc, { lineWidth: 0 }));
    } else deps.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return;
  }
  if (opts.list) {
    const rows: JsonObject[] = OPERATIONS.map((o) => ({
      method: o.method,
      path: o.path,
      access: o.access,
      params:
        o.params.length > 8
          ? `${o.params.length} fields (see vehicle create --help)`
          : o.params.map((p) => `${p.name}${p.required === true ? "*" : ""}`).join(" "),
      summary: o.summary,
    }));
    return deps.out.list(rows, [
      { key: "method" },
      { key: "path" },
      { key: "access" },
      { key: "params" },
      { key: "summary" },
    ]);
  }
  if (!opts.path)
    throw new UsageError("missing PATH", {
      hint: "example: rentctl api vehicles/brands -f segment_id=1; list them with rentctl api --list",
    });
  const files: FilePart[] = [];
  for (const spec of opts.files ?? []) {
    const [k, v] = splitKeyValue(spec, "-F");
    if (!v.startsWith("@")) throw new UsageError(`-F ${spec}: expected KEY=@FILE (use -f for plain values)`);
    const path = v.slice(1);
    let data: Buffer;
    try {
      data = await readFile(path);
    } catch (e) {
      throw new InputError(`-F ${k}: cannot read ${path}: ${fsReason(e)}`);
    }
    files.push({ field: k, filename: basename(path), contentType: contentTypeFor(path), data });
  }
  const method = (opts.method ?? (files.length ? "POST" : "GET")).toUpperCase();
  if (method !== "GET" && method !== "POST")
    throw new UsageError(`-X ${method}: the v302 contract uses GET and POST only`);
  const path = normalizePath(opts.path);
  const fields = fieldsToRecord(opts.fields ?? []);
  const op = findOperation(method, path);
  if (!op) deps.msg.warn(`${method} ${path} is not an operation of the v302 contract; sending it anyway`);
  const auth = needsAuth(method, path);
  const target = await deps.target();
  if (deps.flags.dryRun) {
    return deps.out.record(describeRequest(target, method, fields, { path, files, auth }));
  }
  if (method === "POST") deps.msg.acting(target, `${method} ${path}`);
  const client = await deps.client();
  const res = await sendRaw(deps, {
    method,
    path,
    ...(method === "GET" ? { query: fields } : { form: fields }),
    files,
    auth: auth && (op?.access === "auth" || client.hasKey),
  });
  const result = client.decode(op, res);
  // The body as received, meta included (as `gh api`): byte for byte when piped or with --raw (the client
  // printed it already), pretty-printed on a terminal or re-rendered when a format is asked for.
  if (deps.flags.raw) return;
  const format = deps.settings().output;
  if (format === "table" && deps.settings().sources.output === "default") {
    if (deps.io.stdoutTTY) deps.io.stdout.write(`${JSON.stringify(result.body, null, 2)}\n`);
    else deps.io.stdout.write(res.text.endsWith("\n") ? res.text : `${res.text}\n`);
    return;
  }
  return deps.out.record(result.body);
}
