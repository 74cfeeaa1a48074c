import type { Writable } from "node:stream";
import type { Deps } from "../../deps.js";
import { settleHeap } from "../../memory.js";
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
  const [
    { catalogPort, listExtras, listVehicles, vehicleInputMapper },
    { ACCOUNT_BOUND },
    { formatFor },
    { createNameResolver, nameRow },
    { checkTargetDir },
    { extraState },
    exp,
    { UsageError },
  ] = await Promise.all([
    import("../../fleet/adapters.js"),
    import("../../fleet/fields.js"),
    import("../../fleet/format.js"),
    import("../../fleet/resolver.js"),
    import("../../fleet/write.js"),
    import("../../account/extras.js"),
    import("../../account/export.js"),
    import("../../errors.js"),
  ]);
  const { open, rename, unlink } = await import("node:fs/promises");
  const path = file ?? "-";
  const format = formatFor(path, opts.format, "yaml");
  if (format !== "yaml" && format !== "json")
    throw new UsageError(`account export: an account file is yaml or json, not ${format}`, {
      hint: "csv and ndjson hold vehicles only: use `rentctl vehicle export`",
    });
  if (path !== "-") await checkTargetDir(path, "account export");
  // Checked before any request and before the first byte: the file can be created (a name too long, no
  // permission: one clear line, exit 2).
  const { tempFor, released } = await import("../../temp-files.js");
  const tmp = path === "-" ? undefined : tempFor(path);
  const fh = tmp
    ? await open(tmp, "w", 0o644).catch(async (e: unknown) => {
        const { fsReason } = await import("../../errors.js");
        throw new UsageError(`account export: cannot write ${path}: ${fsReason(e)}`);
      })
    : undefined;
  try {
    await write();
  } catch (e) {
    if (fh) {
      await fh.close().catch(() => {});
      await unlink(tmp!).catch(() => {});
      released(tmp!);
    }
    throw e;
  }
  if (tmp) released(tmp);

  async function write(): Promise<void> {
    const port = await catalogPort(deps);
    const toInput = await vehicleInputMapper();
    const resolver = opts.names ? createNameResolver(port) : undefined;
    const namer = exp.extraNamer(opts.names ? port : undefined);

    const extras = (await listExtras(deps, { warn: (m) => deps.msg.warn(m) }))
      .map((r) => {
        const s = extraState(r);
        if (!s) deps.msg.warn(`extra ${String(r.id ?? "?")}: no option or period in the server's record; not exported`);
        return s;
      })
      .filter((s) => s !== undefined)
      .sort((a, b) => a.id - b.id);
    const duplicated = exp.duplicatedKeys(extras);
    if (duplicated.size)
      deps.msg.warn(
        "the account has two extras of the same option and period: they are written with extra_id (account-bound; drop it before applying to another account)",
      );
    const byId = new Map(extras.map((e) => [e.id, e]));
    const optionCount = new Map<number, number>();
    for (const e of extras) optionCount.set(e.option_id, (optionCount.get(e.option_id) ?? 0) + 1);

    const { loadYaml } = await import("../../output/yaml.js");
    const { stringify } = await loadYaml();
    const stdout = deps.io.stdout as Writable;
    let written = false;
    const put = async (text: string) => {
      written = true;
      if (fh) await fh.write(text);
      else if (!stdout.write(text)) await new Promise((r) => stdout.once("drain", r));
    };
    let vehicles = 0;
    // What can be checked is checked before the first byte: the extras' rows (names included) and the first
    // page of vehicles (an expired key, a wrong owner, the network). A later page that fails leaves stdout
    // with a document that no reader takes for complete (below).
    const extraRows: Record<string, unknown>[] = [];
    for (const e of extras) extraRows.push(await exp.extraExportRow(e, namer, duplicated));
    const pages = listVehicles(deps, { warn: (m) => deps.msg.warn(m) })[Symbol.asyncIterator]();
    const first = await pages.next();
    async function* vehiclePages() {
      if (first.done) return;
      yield first.value;
      for (let p = await pages.next(); !p.done; p = await pages.next()) yield p.value;
    }
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
      for (const row of extraRows) await item(row);
      await close();
      count = 0;
      await put(format === "json" ? ',\n  "vehicles": [' : "vehicles:\n");
      for await (const page of vehiclePages()) {
        for (const record of page) {
          settleHeap();
          let row: Record<string, unknown> = { ...toInput(record) };
          const ids = Array.isArray(row.vehicle_extras) ? (row.vehicle_extras as unknown[]).map(Number) : [];
          for (const k of ACCOUNT_BOUND) delete row[k];
          if (resolver) row = await nameRow(resolver, row);
          if (ids.length) {
            const r = await exp.extraRefsOf(ids, byId, optionCount, duplicated, namer);
            // an id no reference can name (not an extra of the account, or one of two alike): all stay ids
            if (r.ids.length) {
              row.vehicle_extras = ids;
              deps.msg.warn(
                `vehicle ${String(record.id)}: extras ${r.ids.join(", ")} cannot be named by option and period; written as vehicle_extras ids (account-bound)`,
              );
            } else row.extras = r.refs;
          }
          await item(row);
          vehicles++;
        }
      }
      await close();
      if (format === "json") await put("\n}\n");
      if (fh) {
        await fh.sync();
        await fh.close();
        await rename(tmp!, path);
      }
    } catch (e) {
      // Streamed to stdout and cut short: end it with a line no YAML reader accepts (`%` starts no value;
      // an unclosed JSON document is refused as it is), saying why.
      if (!fh && written && format === "yaml")
        await put(`%INCOMPLETE rentctl account export failed: ${(e as Error).message.replace(/\s+/g, " ")}\n`).catch(
          () => {},
        );
      throw e;
    }
    deps.msg.info(
      `exported ${extras.length} extra${extras.length === 1 ? "" : "s"} and ${vehicles} vehicle${vehicles === 1 ? "" : "s"}${path === "-" ? "" : ` to ${path}`}`,
    );
  }
}
