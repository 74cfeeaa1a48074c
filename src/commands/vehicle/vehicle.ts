/** The vehicle verbs, one per file; this index keeps the old import path for callers outside the CLI. */
export { setActivity } from "./activate.js";
export { create } from "./create.js";
export { type EditOptions, edit } from "./edit.js";
export { get } from "./get.js";
export { list } from "./list.js";
export { remove } from "./remove.js";
