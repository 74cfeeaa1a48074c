export { counted } from "../../api/paginate.js";
export { UNDOING } from "../../gateway/undo.js";
export { actionOf, whatItDid, whatOf } from "../../ops/undo/history.js";
