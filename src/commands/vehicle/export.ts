import { createWriteStream } from "node:fs";
import { rename, unlink } from "node:fs/promises";
import type { Writable } from "node:stream";
import { counted } from "../../api/paginate.js";
import { fsReason, UsageError } from "../../base/errors.js";
import * as tempFilesModule from "../../base/temp-files.js";
import type { Deps } from "../../deps.js";
import { catalogPort, listVehicles, vehicleInputMapper } from "../../files/adapters.js";
import { ACCOUNT_BOUND, exportColumns } from "../../files/fields.js";
import { formatFor } from "../../files/format.js";
import { createNameResolver, nameRow } from "../../files/resolver.js";
import { checkTargetDir, createRecordWriter, endIncomplete } from "../../files/write.js";
import { searchFilter } from "../../ops/search.js";
import { arg, flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { prepareSelection } from "./select.js";

export const verb = defineVerb({
  name: "export",
  description: "Write every vehicle to a fleet file (input fields; streamed; temp file then rename)",
  args: { file: arg.optional("file to write (.json, .ndjson, .yaml, .csv); - or none for stdout") },
  flags: {
    format: flag.string("--format <format>", "json, ndjson, yaml or csv (default: by extension; ndjson on stdout)"),
    withIds: flag.bool("--with-ids", "also write vehicle_id and the account-bound vehicle_images / vehicle_extras"),
    names: flag.bool(
      "--names",
      "write catalog names instead of ids where a name exists (portable between environments)",
    ),
    where: flag.list(
      "--where <expr>",
      "only vehicles where FIELD OP VALUE holds (repeat: all must hold); matched in the client over every page",
    ),
    search: flag.string(
      "--search <text>",
      "only vehicles whose text contains TEXT, as `vehicle list --search` (any case, accents folded)",
    ),
  },
  examples: ["rentctl vehicle export fleet.csv", "rentctl vehicle export --names -p staging > fleet.ndjson"],
  run: (deps, args, opts) => run(deps, args.file, opts),
});

export interface ExportOptions {
  format?: string;
  withIds?: boolean;
  names?: boolean;
  /** Only the vehicles where every FIELD OP VALUE holds (matched in the client over every page). */
  where?: string[];
  /** Only the vehicles whose text contains this (the rule of `vehicle list --search`). */
  search?: string;
}

/**
 * `vehicle export [FILE]`: every vehicle, one row each, streamed page by page
 * (memory does not grow with the fleet). Input fields only, mapped from the
 * server's record by the safe-edit mapping; account-bound ids (images,
 * extras) only with --with-ids. A file is written under a temp name and
 * renamed at the end.
 */
export async function run(deps: Deps, file: string | undefined, opts: ExportOptions): Promise<void> {
  const path = file ?? "-";
  // `-o json|ndjson|csv|yaml` (the flag) says the format as --format does (--format wins); another -o is
  // refused: every other command honours -o, so a silently ignored one would surprise a script
  const settings = deps.settings();
  const asked = opts.format ?? (settings.sources.output === "flag" ? settings.output : undefined);
  if (opts.format === undefined && asked !== undefined && !["json", "ndjson", "csv", "yaml"].includes(asked)) {
    throw new UsageError(`vehicle export: -o ${asked}: a fleet file is json, ndjson, csv or yaml`, {
      hint: "use -o json, -o ndjson, -o csv or -o yaml (or --format)",
    });
  }
  const format = formatFor(path, asked, "ndjson");
  // checked before anything is written (an empty text is a usage error)
  const search = opts.search !== undefined ? searchFilter(deps, "vehicle", opts.search) : undefined;
  const toInput = await vehicleInputMapper();
  const resolver = opts.names ? createNameResolver(await catalogPort(deps)) : undefined;
  const temp = path === "-" ? undefined : tempFilesModule;
  const tmp = temp?.tempFor(path);
  if (tmp) await checkTargetDir(path, "vehicle export");
  const out: Writable = tmp ? createWriteStream(tmp, { mode: 0o644 }) : (deps.io.stdout as Writable);
  if (tmp) {
    // a file that cannot be created (permissions) is one clear line, never an unhandled stream error
    await new Promise<void>((res, rej) => {
      out.once("open", () => res());
      out.once("error", (e: NodeJS.ErrnoException) =>
        rej(new UsageError(`vehicle export: cannot write ${path}: ${fsReason(e)}`)),
      );
    });
  }
  let count = 0;
  let lastId = 0;
  let ordered = true;
  let written = false;
  try {
    const writer = await createRecordWriter(format, out, exportColumns(Boolean(opts.withIds)));
    const selection = opts.where?.length ? await prepareSelection(deps, opts.where) : undefined;
    for await (const listed of listVehicles(deps, { warn: (m) => deps.msg.warn(m) })) {
      const page = search ? await search(listed) : listed;
      for (const record of page) {
        if (selection && !selection.matches(record)) continue;
        const id = typeof record.id === "number" ? record.id : 0;
        if (id < lastId) ordered = false;
        lastId = id;
        let row: Record<string, unknown> = { ...toInput(record) };
        if (!opts.withIds) for (const k of ACCOUNT_BOUND) delete row[k];
        if (resolver) row = await nameRow(resolver, row);
        written = true;
        await writer.write(opts.withIds ? { vehicle_id: id, ...row } : row);
        count++;
      }
    }
    await writer.end();
    if (tmp) {
      await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
      await rename(tmp, path);
      temp?.released(tmp);
    }
  } catch (e) {
    if (tmp) {
      out.destroy();
      await unlink(tmp).catch(() => {});
    } else if (written) await endIncomplete(format, out, "vehicle export", e);
    throw e;
  }
  if (!ordered) deps.msg.warn("the server listed vehicles out of id order; rows are in its order");
  deps.msg.info(`exported ${counted(count, "vehicles")}${tmp ? ` to ${path}` : ""}`);
}
