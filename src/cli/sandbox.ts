import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl sandbox`: its command table (src/commands/sandbox/<verb>.ts, each loaded when it runs). */
export function sandboxCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(
    ctx,
    new Command("sandbox"),
    [
      { words: ["serve"], load: async () => (await import("../commands/sandbox/serve.js")).verb },
      { words: ["reset"], load: async () => (await import("../commands/sandbox/reset.js")).verb },
      { words: ["repair"], load: async () => (await import("../commands/sandbox/repair.js")).verb },
      { words: ["info"], load: async () => (await import("../commands/sandbox/info.js")).verb },
    ],
    verb,
  );
}
