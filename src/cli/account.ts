import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/**
 * `rentctl account`: the whole account (extras and vehicles) as one file; its
 * command table (src/commands/account/<verb>.ts, each loaded when it runs).
 */
export function accountCommand(ctx: CliContext, verb?: string): Promise<Command> {
  const cmd = new Command("account").description(
    "The whole account (extras and vehicles) as one file: export, diff, apply, schema",
  );
  return addVerbTable(
    ctx,
    cmd,
    [
      { words: ["export"], load: async () => (await import("../commands/account/export.js")).verb },
      { words: ["diff"], load: async () => (await import("../commands/account/diff.js")).verb },
      { words: ["apply"], load: async () => (await import("../commands/account/apply.js")).verb },
      { words: ["schema"], load: async () => (await import("../commands/account/schema.js")).verb },
    ],
    verb,
  );
}
