import { Command } from "commander";
import { addVerbTable } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl auth`: its command table (each verb's module, src/commands/auth/<verb>.ts, loaded when it runs). */
export function authCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(
    ctx,
    new Command("auth"),
    [
      { words: ["login"], load: async () => (await import("../commands/auth/login.js")).verb },
      { words: ["status"], load: async () => (await import("../commands/auth/status.js")).verb },
      { words: ["logout"], load: async () => (await import("../commands/auth/logout.js")).verb },
      { words: ["migrate"], load: async () => (await import("../commands/auth/migrate.js")).verb },
    ],
    verb,
  );
}

/** `rentctl profile`: its command table (src/commands/profile/<verb>.ts). */
export function profileCommand(ctx: CliContext, verb?: string): Promise<Command> {
  return addVerbTable(
    ctx,
    new Command("profile"),
    [
      { words: ["list"], load: async () => (await import("../commands/profile/list.js")).verb },
      { words: ["show"], load: async () => (await import("../commands/profile/show.js")).verb },
      { words: ["use"], load: async () => (await import("../commands/profile/use.js")).verb },
      { words: ["set"], load: async () => (await import("../commands/profile/set.js")).verb },
      { words: ["remove"], load: async () => (await import("../commands/profile/remove.js")).verb },
    ],
    verb,
  );
}
