import type { Deps } from "../../deps.js";
import { EXTRA } from "../../resources/safe-edit.js";
import { showRecord } from "../resource.js";

export function get(deps: Deps, rawId: string): Promise<void> {
  return showRecord(deps, EXTRA, rawId);
}
