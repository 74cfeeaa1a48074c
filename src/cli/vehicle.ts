import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/**
 * `rentctl vehicle`: its command table, in help order (each verb declared in
 * src/commands/vehicle/<verb>.ts, its module loaded when the verb runs).
 */
export function vehicleCommand(ctx: CliContext, verb?: string): Promise<Command> {
  const cmd = new Command("vehicle").description("List, show, create, edit, remove and (de)activate vehicles");
  return addVerbTable(
    ctx,
    cmd,
    [
      { words: ["list"], load: async () => (await import("../commands/vehicle/list.js")).verb },
      { words: ["get", "show"], load: async () => (await import("../commands/vehicle/get.js")).verb },
      { words: ["create"], load: async () => (await import("../commands/vehicle/create.js")).verb },
      { words: ["wizard"], load: async () => (await import("../commands/vehicle/wizard.js")).verb },
      { words: ["edit"], load: async () => (await import("../commands/vehicle/edit.js")).verb },
      { words: ["remove", "delete", "rm"], load: async () => (await import("../commands/vehicle/remove.js")).verb },
      {
        words: ["activate", "deactivate"],
        load: async () => {
          const { activateVerb, deactivateVerb } = await import("../commands/vehicle/activate.js");
          return [activateVerb, deactivateVerb];
        },
      },
      { words: ["calendar"], load: async () => (await import("../commands/vehicle/calendar.js")).verb },
      { words: ["export"], load: async () => (await import("../commands/vehicle/export.js")).verb },
      { words: ["import"], load: async () => (await import("../commands/vehicle/import.js")).verb },
      { words: ["diff"], load: async () => (await import("../commands/vehicle/diff.js")).verb },
      { words: ["apply"], load: async () => (await import("../commands/vehicle/apply.js")).verb },
      { words: ["schema"], load: async () => (await import("../commands/vehicle/schema.js")).verb },
    ],
    verb,
  );
}
