import type { Command } from "commander";
import { flag } from "../commands/flags.js";
import { defineVerb } from "../commands/verb.js";
import { serve } from "../mcp/server.js";
import { verbCommand } from "./assemble.js";
import type { CliContext } from "./shared.js";

/** `rentctl mcp`: the CLI verb that starts the MCP server (src/mcp/server.ts, a front end of its own). */
const verb = defineVerb({
  name: "mcp",
  description: "Serve the inventory to AI assistants (Model Context Protocol, stdio): read-only unless --allow-writes",
  flags: {
    allowWrites: flag.optional(
      "--allow-writes [scope]",
      "offer apply_plan and undo (writes only through a plan the person reviewed); --allow-writes=sandbox: only on the sandbox",
    ),
    maxChanges: flag.int("--max-changes <n>", "refuse to apply a plan with more changes than this (default 50)", {
      min: 1,
    }),
    planTtl: flag.number(
      "--plan-ttl <minutes>",
      "minutes a plan token stays valid (default 15; 0: tokens expire at once)",
      {
        min: 0,
        max: 1440,
      },
    ),
    printConfig: flag.bool("--print-config", "print the snippet that adds this server to an assistant's configuration"),
  },
  examples: [
    "rentctl mcp --print-config",
    "rentctl --env sandbox mcp --print-config",
    "rentctl -p production mcp --allow-writes --max-changes 20 --print-config",
  ],
  notes: `
stdout is the protocol; logs go to stderr. The API key is never in a tool
result or a log: the server reads it as every command does (keychain,
RENTCTL_API_KEY, profile).
Writes: plan_changes returns a plan and a token; apply_plan(token) runs exactly
that plan (single use, expires, refused when stale).
`,
  run: async (deps, _args, opts) => serve(deps, opts),
});

export function mcpCommand(ctx: CliContext): Command {
  return verbCommand(ctx, verb);
}
