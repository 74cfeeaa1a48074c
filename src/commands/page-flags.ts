import { flag } from "./flags.js";

/** `--limit`, `--offset`, `--page` and `--all` of a paged listing (vehicle list, extra list): read into PagedListOptions. */
export function pageFlags(plural: string) {
  return {
    limit: flag.int("--limit <n>", `${plural} per page (default 15; 100 with --all)`, { min: 1 }),
    offset: flag.int("--offset <n>", `${plural} to skip`, { min: 0 }),
    page: flag.int("--page <n>", "page number (1-based; uses --limit)", { min: 1 }),
    all: flag.bool("--all", "walk every page (every format streams as pages arrive)"),
  };
}
