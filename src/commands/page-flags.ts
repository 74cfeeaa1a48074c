import { flag } from "./flags.js";

/**
 * `--limit`, `--offset`, `--page` and `--all` of a paged listing (vehicle list, extra list): read into
 * PagedListOptions. A table shows one page; a program reading (json, ndjson, csv, yaml, -q) gets every
 * row unless --limit, --page or --offset bound it (src/commands/paged-list.ts wholeListFor).
 */
export function pageFlags(plural: string) {
  return {
    limit: flag.int(
      "--limit <n>",
      `${plural} per page (default 15 in a table; json, ndjson, csv, yaml and -q get every one unless --limit or --page)`,
      { min: 1 },
    ),
    offset: flag.int("--offset <n>", `${plural} to skip`, { min: 0 }),
    page: flag.int("--page <n>", "page number (1-based; uses --limit)", { min: 1 }),
    all: flag.bool("--all", "every page in a table too (other formats list every page already; streamed)"),
  };
}
