import type { Deps } from "../deps.js";
import { flag } from "./flags.js";

/** `--wide` and `--ids` of a table view (lists); set on the output before anything is printed. */
export function tableFlags() {
  return {
    wide: flag.bool("--wide", "show every cell in full (tables fit the terminal's width otherwise)"),
    ids: flag.bool("--ids", "show raw ids in tables instead of catalog names"),
  };
}

/** `--all-fields`, `--wide` and `--ids` of a card (`vehicle get`, `extra get`). */
export function cardFlags() {
  return {
    allFields: flag.bool("--all-fields", "show empty fields too (the card leaves them out)"),
    ...tableFlags(),
  };
}

export function applyView(deps: Deps, opts: { wide?: boolean; ids?: boolean; allFields?: boolean }): void {
  deps.out.setView({ wide: opts.wide === true, ids: opts.ids === true, allFields: opts.allFields === true });
}
