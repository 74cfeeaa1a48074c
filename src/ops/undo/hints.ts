/** How a refusal names the next step, in the words of the front end (the CLI's commands, the library's methods). */
export interface UndoHints {
  /** Where the ops are listed. */
  list: string;
  /** How to undo the whole apply an op belongs to. */
  batch(batch: string): string;
  /** How to select the target an op was made on. */
  target: string;
  /** How to undo an apply's rows changed since it, too. */
  force(op: string): string;
  /** What to do once a failed restore's cause is fixed. */
  rerun(op: string): string;
  /** How to look at a vehicle (a removal whose vehicle is still there). */
  vehicleGet(id: number): string;
  /** How to toggle an extra whose state before was not recorded. */
  extraSwitch(id: number): string;
}

export const CLI_UNDO_HINTS: UndoHints = {
  list: "list them with `rentctl undo`",
  batch: (batch) => `undo it all with \`rentctl undo ${batch}\``,
  target: "select the same environment, address and owner (profile, --env, --base-url, --user) to undo it",
  force: (op) => `\`rentctl undo ${op} --force\` undoes them too (their later changes are lost)`,
  rerun: (op) => `run \`rentctl undo ${op}\` again once the cause is fixed`,
  vehicleGet: (id) => `the removal may never have taken effect; check with \`rentctl vehicle get ${id}\``,
  extraSwitch: (id) => `\`rentctl extra switch ${id}\` toggles it back`,
};

export const LIBRARY_UNDO_HINTS: UndoHints = {
  list: "list them with client.history()",
  batch: (batch) => `undo it all with client.undo(${JSON.stringify(batch)})`,
  target: "create the client with the baseUrl and userId the op was made with to undo it",
  force: (op) => `client.undo(${JSON.stringify(op)}, { force: true }) undoes them too (their later changes are lost)`,
  rerun: (op) => `call client.undo(${JSON.stringify(op)}) again once the cause is fixed`,
  vehicleGet: (id) => `the removal may never have taken effect; check with client.vehicles.get(${id})`,
  extraSwitch: (id) => `client.extras.switch(${id}) toggles it back`,
};

export const TOOL_UNDO_HINTS: UndoHints = {
  list: "list them with the undo_history tool",
  batch: (batch) => `undo it all with the undo tool, op ${JSON.stringify(batch)}`,
  target: "the op was made on another target than the server's: undo it from a server on that target",
  force: () => "a person can undo them too with `rentctl undo OP --force` (their later changes are lost)",
  rerun: (op) => `call the undo tool with op ${JSON.stringify(op)} again once the cause is fixed`,
  vehicleGet: (id) => `the removal may never have taken effect; check with get_vehicle, id ${id}`,
  extraSwitch: (id) => `check the extra with get_extra, id ${id}`,
};
