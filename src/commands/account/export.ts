import type { Writable } from "node:stream";
import type { Deps } from "../../deps.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "export",
  description:
    "Write the account (extras, then vehicles) to an account file (yaml or json; streamed; temp file then rename)",
  args: { file: arg.optional("file to write (.yaml or .json); - or none for stdout (yaml)") },
  flags: {
    format: flag.string("--format <format>", "yaml or json (default: by extension; yaml on stdout)"),
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
 * src/account/export.ts); images stay out (account-bound ids, as `vehicle
 * export`). A file is written under a temp name, fsync'd and renamed.
 */
export async function run(deps: Deps, file: string | undefined, opts: AccountExportOptions): Promise<void> {
  const [{ formatFor }, { checkTargetDir }, { exportAccount }, { UsageError }] = await Promise.all([
    import("../../fleet/format.js"),
    import("../../fleet/write.js"),
    import("../../ops/account/export.js"),
    import("../../errors.js"),
  ]);
  const { open, rename, unlink } = await import("node:fs/promises");
  const { basename, dirname, join } = await import("node:path");
  const path = file ?? "-";
  const format = formatFor(path, opts.format, "yaml");
  if (format !== "yaml" && format !== "json")
    throw new UsageError(`account export: an account file is yaml or json, not ${format}`, {
      hint: "csv and ndjson hold vehicles only: use `rentctl vehicle export`",
    });
  if (path !== "-") await checkTargetDir(path, "account export");
  const doc = await exportAccount(deps, { names: opts.names });
  const extras = doc.extras;

  const { loadYaml } = await import("../../output/yaml.js");
  const { stringify } = await loadYaml();
  const tmp = path === "-" ? undefined : join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fh = tmp ? await open(tmp, "w", 0o644) : undefined;
  const stdout = deps.io.stdout as Writable;
  const put = async (text: string) => {
    if (fh) await fh.write(text);
    else if (!stdout.write(text)) await new Promise((r) => stdout.once("drain", r));
  };
  try {
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
    for (const e of extras) await item(e);
    await close();
    count = 0;
    await put(format === "json" ? ',\n  "vehicles": [' : "vehicles:\n");
    for await (const row of doc.vehicles) await item(row);
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
    }
    throw e;
  }
  deps.msg.info(
    `exported ${extras.length} extra${extras.length === 1 ? "" : "s"} and ${doc.vehicleCount()} vehicle${doc.vehicleCount() === 1 ? "" : "s"}${path === "-" ? "" : ` to ${path}`}`,
  );
}
