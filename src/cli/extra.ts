import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/**
 * `rentctl extra`: its command table, in help order (each verb declared in
 * src/commands/extra/<verb>.ts, its module loaded when the verb runs).
 */
export function extraCommand(ctx: CliContext, verb?: string): Promise<Command> {
  const cmd = new Command("extra").description("Manage the account's paid extras (child seats, GPS, …)");
  return addVerbTable(
    ctx,
    cmd,
    [
      { words: ["options"], load: async () => (await import("../commands/extra/options.js")).verb },
      { words: ["list"], load: async () => (await import("../commands/extra/list.js")).verb },
      { words: ["get", "show"], load: async () => (await import("../commands/extra/get.js")).verb },
      { words: ["create"], load: async () => (await import("../commands/extra/create.js")).verb },
      { words: ["update"], load: async () => (await import("../commands/extra/update.js")).verb },
      {
        words: ["enable", "disable"],
        load: async () => {
          const { enableVerb, disableVerb } = await import("../commands/extra/enable.js");
          return [enableVerb, disableVerb];
        },
      },
      { words: ["switch"], load: async () => (await import("../commands/extra/switch.js")).verb },
      { words: ["delete", "remove", "rm"], load: async () => (await import("../commands/extra/remove.js")).verb },
    ],
    verb,
  );
}
