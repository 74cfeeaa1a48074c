import { open, rename, unlink } from "node:fs/promises";
import type { Writable } from "node:stream";
import { counted } from "../../api/paginate.js";
import { fsReason, UsageError } from "../../base/errors.js";
import { released, tempFor } from "../../base/temp-files.js";
import type { Deps } from "../../deps.js";
import { formatFor } from "../../files/format.js";
import { checkTargetDir, endIncomplete } from "../../files/write.js";
import { exportAccount } from "../../ops/account/export.js";
import { loadYaml } from "../../output/yaml.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "export",
  description:
    "Write the account (extras, then vehicles) to an account file (yaml or json; streamed; temp file then rename)",
  args: { file: arg.optional("file to write (.yaml or .json); - or none for stdout (yaml)") },
  flags: {
    format: flag.string("--format <format>", "yaml or json (default: -o json|yaml, else by extension; yaml on stdout)"),
    names: flag.bool(
      "--names",
      "write catalog names instead of ids where a name exists (portable between environments)",
    ),
  },
  examples: [
    "rentctl account export account.yaml",
    "rentctl account export --names -p staging account.yaml && rentctl account diff -f account.yaml -p production",
  ],
  run: (deps, args, opts) => run(deps, args.file, opts),
});

export interface AccountExportOptions {
  format?: string;
  names?: boolean;
}

/**
 * `account export [FILE]`: the extras (by id order) then the vehicles (in the
 * server's id order), one document `{extras: [...], vehicles: [...]}`.
 * Vehicles refer to extras by identity, never by account-bound id (see
 * src/plans/account-export.ts); images stay out (account-bound ids, as `vehicle
 * export`). A file is written under a temp name, fsync'd and renamed.
 */
export async function run(deps: Deps, file: string | undefined, opts: AccountExportOptions): Promise<void> {
  const path = file ?? "-";
  // `-o json` / `-o yaml` (the flag) say the format as --format does; --format wins; another -o is refused.
  const settings = deps.settings();
  const asked = opts.format ?? (settings.sources.output === "flag" ? settings.output : undefined);
  if (opts.format === undefined && asked !== undefined && asked !== "json" && asked !== "yaml")
    throw new UsageError(`account export: -o ${asked}: an account file is yaml or json`, {
      hint: "use -o yaml or -o json (or --format); csv and ndjson hold vehicles only: `rentctl vehicle export`",
    });
  const format = formatFor(path, asked, "yaml");
  if (format !== "yaml" && format !== "json")
    throw new UsageError(`account export: an account file is yaml or json, not ${format}`, {
      hint: "csv and ndjson hold vehicles only: use `rentctl vehicle export`",
    });
  if (path !== "-") await checkTargetDir(path, "account export");
  // Checked before any request: the file can be created (a name too long, no permission: one clear line, exit 2).
  const tmp = path === "-" ? undefined : tempFor(path);
  const fh = tmp
    ? await open(tmp, "w", 0o644).catch(async (e: unknown) => {
        throw new UsageError(`account export: cannot write ${path}: ${fsReason(e)}`);
      })
    : undefined;
  const stdout = deps.io.stdout as Writable;
  let written = false;
  const put = async (text: string) => {
    written = true;
    if (fh) await fh.write(text);
    else if (!stdout.write(text)) await new Promise((r) => stdout.once("drain", r));
  };
  let extras: unknown[] = [];
  let vehicleCount = () => 0;
  try {
    // What can be checked is checked before the first byte: the extras' rows (names included) and the
    // first page of vehicles (an expired key, a wrong owner, the network). A later page that fails leaves
    // stdout with a document no reader takes for complete (below).
    const doc = await exportAccount(deps, { names: opts.names });
    extras = doc.extras;
    vehicleCount = doc.vehicleCount;
    const rows = doc.vehicles[Symbol.asyncIterator]();
    const first = await rows.next();
    const { stringify } = await loadYaml();
    // sections are written as they are read: the vehicles are never held all at once
    let count = 0;
    const item = async (r: Record<string, unknown>) => {
      if (format === "json") await put(`${count ? "," : ""}\n    ${JSON.stringify(r)}`);
      else await put(stringify([r], { lineWidth: 0 }));
      count++;
    };
    const close = () => (format === "json" ? put(count ? "\n  ]" : "]") : count ? Promise.resolve() : put("  []\n"));
    if (format === "yaml") await put("# yaml-language-server: $schema=rentctl-account.schema.json\nextras:\n");
    else await put('{\n  "$schema": "rentctl-account.schema.json",\n  "extras": [');
    for (const e of doc.extras) await item(e);
    await close();
    count = 0;
    await put(format === "json" ? ',\n  "vehicles": [' : "vehicles:\n");
    for (let r = first; !r.done; r = await rows.next()) await item(r.value);
    await close();
    if (format === "json") await put("\n}\n");
    if (fh) {
      await fh.sync();
      await fh.close();
      await rename(tmp!, path);
    }
  } catch (e) {
    if (fh) {
      await fh.close().catch(() => {});
      await unlink(tmp!).catch(() => {});
    } else if (written) await endIncomplete(format, stdout, "account export", e);
    throw e;
  } finally {
    if (tmp) released(tmp);
  }
  deps.msg.info(
    `exported ${counted(extras.length, "extras")} and ${counted(vehicleCount(), "vehicles")}${path === "-" ? "" : ` to ${path}`}`,
  );
}
