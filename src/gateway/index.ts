/**
 * The gateway: the only code that writes vehicles and extras (and uploads
 * images). It holds the client's write grant (src/api/write-grant.ts; the
 * layering rule lets no other module import it), records the undo history
 * before each write (./undo.ts), guards every replace against a record that
 * moved since it was read or planned, and takes a bulk job's row log hook
 * (`beforeWrite`) so a crash after it is reconciled instead of sent again.
 *
 * - ./records.ts: one record as a person changes it (guarded replace = safe
 *   edit, create, remove, switch), vehicles and extras alike.
 * - ./vehicles.ts: the writes of bulk jobs (create, planned replace, planned
 *   removal, re-create, image upload, removal of a duplicate the identity
 *   check found).
 * - ./undo.ts: how a write is recorded for undo (own entry, batch row,
 *   recorded with the plan, or none for the writes of an undo).
 * - ./send.ts: the two senders that hold the grant (and `rentctl api`'s raw request).
 */

export {
  createExtra,
  currentExtra,
  movedMembers,
  removeExtraPlanned,
  replaceExtraPlanned,
  type SwitchOutcome,
  setExtraActive,
} from "./extras.js";
export {
  removeRecord,
  switchExtra,
  type UpdateOptions,
  type UpdateResult,
} from "./records.js";
export { sendRaw } from "./send.js";
export {
  OWN_ENTRY,
  openBatch,
  recordPlan,
  UNDOING,
  type UndoBatch,
  type UndoScope,
} from "./undo.js";
export {
  createVehicle,
  currentVehicle,
  movedFields,
  type RemoveOutcome,
  type ReplaceOutcome,
  type RowWrite,
  recreateVehicle,
  removeDuplicate,
  removePlanned,
  replacePlanned,
  uploadImages,
  uploadParts,
} from "./vehicles.js";
