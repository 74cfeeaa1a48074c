import { extname } from "node:path";
import { UsageError } from "../base/errors.js";

/** The fleet file formats; one reader and one writer each (read.ts, write.ts). */
export const FLEET_FORMATS = ["json", "ndjson", "yaml", "csv"] as const;
export type FleetFormat = (typeof FLEET_FORMATS)[number];

const BY_EXT: Record<string, FleetFormat> = {
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".csv": "csv",
};

export function parseFormat(value: string, flag = "--format"): FleetFormat {
  const v = value.toLowerCase();
  if ((FLEET_FORMATS as readonly string[]).includes(v)) return v as FleetFormat;
  throw new UsageError(`${flag}: unknown format ${JSON.stringify(value)} (expected ${FLEET_FORMATS.join(", ")})`);
}

/**
 * The format of a file: `--format` wins, else the extension. `-` (stdin /
 * stdout) has no extension: `fallback` applies (export: ndjson), or it is an error.
 */
export function formatFor(path: string, override?: string, fallback?: FleetFormat, flag = "--format"): FleetFormat {
  if (override) return parseFormat(override, flag);
  if (path !== "-") {
    const f = BY_EXT[extname(path).toLowerCase()];
    if (f) return f;
  }
  if (fallback) return fallback;
  throw new UsageError(
    path === "-"
      ? "reading stdin needs --format (json, ndjson, yaml or csv)"
      : `cannot tell the format of ${path} from its extension`,
    { hint: `name the file .json, .ndjson, .yaml or .csv, or pass ${flag}` },
  );
}
