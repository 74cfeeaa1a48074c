/** A resource id from the command line: a whole number of at least 1 (the one rule lives with the handles). */
export { parseId } from "../ops/handles.js";
