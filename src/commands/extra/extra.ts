/** The extra verbs, one per file; this index keeps the old import path for callers outside the CLI. */

export { switchedState } from "../../ops/extra/switch.js";
export { create } from "./create.js";
export { get } from "./get.js";
export { list } from "./list.js";
export { options } from "./options.js";
export { remove } from "./remove.js";
export { switchExtra } from "./switch.js";
export { update } from "./update.js";
