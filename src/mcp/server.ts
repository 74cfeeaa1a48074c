import type { Deps } from "../deps.js";
import { exitCodeOf, RentctlError, UsageError } from "../errors.js";
import { planTarget } from "../fleet/saved-plan.js";
import { VERSION } from "../version.js";
import { DEFAULT_PLAN_TTL_MS, PlanTokens } from "./tokens.js";
import { checkArguments, TOOLS, type ToolContext } from "./tools.js";

export interface McpOptions {
  allowWrites?: string | boolean;
  maxChanges?: number;
  planTtl?: number;
  printConfig?: boolean;
}

export const DEFAULT_MAX_CHANGES = 50;

function writesOf(v: string | boolean | undefined): ToolContext["writes"] {
  if (v === undefined || v === false) return "none";
  if (v === true || v === "" || v === "all") return "all";
  if (v === "sandbox") return "sandbox";
  throw new UsageError(`--allow-writes=${v}: expected nothing (all targets) or "sandbox"`);
}

/** The global flags that choose the target, as given, for the configuration snippet (never the key). */
function targetArgs(deps: Deps): string[] {
  const f = deps.flags;
  const out: string[] = [];
  if (f.profile) out.push("--profile", f.profile);
  if (f.env) out.push("--env", f.env);
  if (f.baseUrl) out.push("--base-url", f.baseUrl);
  if (f.user) out.push("--user", f.user);
  if (f.locale) out.push("--locale", f.locale);
  if (f.timeout) out.push("--timeout", f.timeout);
  return out;
}

/**
 * `rentctl mcp`: an MCP server on stdio (the official SDK's Server and
 * StdioServerTransport) for the target every command resolves (profile,
 * --env, --user). Runs until the client closes stdin.
 */
export async function serve(deps: Deps, opts: McpOptions): Promise<void> {
  const writes = writesOf(opts.allowWrites);
  const maxChanges = opts.maxChanges ?? DEFAULT_MAX_CHANGES;
  if (opts.printConfig) {
    deps.settings(); // a profile that does not exist is refused here as the server would refuse it
    const args = [
      ...targetArgs(deps),
      "mcp",
      ...(writes === "all" ? ["--allow-writes"] : writes === "sandbox" ? ["--allow-writes=sandbox"] : []),
      ...(opts.maxChanges !== undefined ? ["--max-changes", String(maxChanges)] : []),
      ...(opts.planTtl !== undefined ? ["--plan-ttl", String(opts.planTtl)] : []),
    ];
    // the target chosen through the environment goes along (never the key: it stays in the keychain or the caller's env)
    const env = Object.fromEntries(
      ["RENTCTL_PROFILE", "RENTCTL_ENV", "RENTCTL_BASE_URL", "RENTCTL_USER_ID", "RENTCTL_LOCALE"].flatMap((k) =>
        deps.env[k] ? [[k, deps.env[k]!]] : [],
      ),
    );
    const snippet = { mcpServers: { rentctl: { command: "rentctl", args, env } } };
    deps.io.stdout.write(`${JSON.stringify(snippet, null, 2)}\n`);
    deps.msg.info(
      'add this to your assistant\'s MCP configuration (Claude Desktop: claude_desktop_config.json; VS Code: .vscode/mcp.json under "servers"). The key is read as every rentctl command reads it (keychain or RENTCTL_API_KEY): never put it in the file.',
    );
    return;
  }
  const sdk = import("./sdk.js"); // loading while the target is resolved
  sdk.catch(() => {});
  const target = await planTarget(deps);
  const tokens = new PlanTokens(opts.planTtl === undefined ? DEFAULT_PLAN_TTL_MS : opts.planTtl * 60_000, deps.now);
  const canWrite = writes === "all" || (writes === "sandbox" && target.env === "sandbox");
  if (writes === "sandbox" && !canWrite)
    deps.msg.warn(`--allow-writes=sandbox: the target is ${target.env}, so this server is read-only`);
  const ctx: ToolContext = { deps, tokens, maxChanges, writes: canWrite ? writes : "none", target: async () => target };
  const tools = TOOLS.filter((t) => !t.writes || canWrite);

  const { Server, StdioServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await sdk;
  const instructions = [
    `rentctl manages the vehicle rental inventory of owner ${target.owner} on ${target.env} (Vehicle Rental Partner API v302): vehicles, their prices and availability, and paid extras.`,
    "Read with list_vehicles (where expressions as the CLI takes them), get_vehicle, list_extras, get_extra, vehicle_calendar, search_catalog (ids by name), export_account, undo_history.",
    "To change anything, call plan_changes: it sends nothing and returns a markdown summary and a plan token. Show the summary to the person and ask before applying.",
    canWrite
      ? `apply_plan(token) runs exactly the reviewed plan (single use, expires in ${opts.planTtl ?? 15} minutes, refused if the account changed since or if it has more than ${maxChanges} changes); undo(op) reverts one op.`
      : `This server is read-only (${writes === "sandbox" ? "started with --allow-writes=sandbox, and the target is not the sandbox" : "started without --allow-writes"}): plans can be made and reviewed here, and the person applies one with \`rentctl account apply --plan FILE\` (plan_changes gives the file).`,
  ].join("\n");
  const server = new Server({ name: "rentctl", version: VERSION }, { capabilities: { tools: {} }, instructions });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: "object" },
      annotations: { title: t.title, ...t.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const started = Date.now();
    const tool = tools.find((t) => t.name === req.params.name);
    const log = (what: string) =>
      deps.io.stderr.write(`rentctl mcp: ${req.params.name}: ${what} (${Date.now() - started} ms)\n`);
    if (!tool) {
      const writeTool = TOOLS.some((t) => t.name === req.params.name && t.writes);
      log("refused");
      return errorResult(
        new UsageError(
          writeTool
            ? `${req.params.name} is not offered: this server was started without --allow-writes${writes === "sandbox" ? " (=sandbox, and the target is not the sandbox)" : ""}; nothing was sent`
            : `unknown tool ${JSON.stringify(req.params.name)}`,
        ),
      );
    }
    try {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      checkArguments(tool, args);
      const r = await tool.run(ctx, args);
      log("ok");
      // the data twice, as MCP asks: structured, and as JSON text for clients that pass only text to the model
      return {
        content: [
          { type: "text" as const, text: r.summary },
          { type: "text" as const, text: JSON.stringify(r.data) },
        ],
        structuredContent: r.data,
      };
    } catch (e) {
      log(`error: ${e instanceof Error ? e.message : String(e)}`);
      return errorResult(e);
    }
  });

  const transport = new StdioServerTransport(
    deps.io.stdin as unknown as import("node:stream").Readable,
    deps.io.stdout as unknown as import("node:stream").Writable,
  );
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    deps.io.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  deps.msg.info(
    `rentctl mcp: serving owner ${target.owner} on ${target.env} over stdio (${canWrite ? `writes through reviewed plans, at most ${maxChanges} changes a plan` : "read-only"}; ${tools.length} tools)`,
  );
  await closed;
  await server.close().catch(() => {});
}

/** A tool error as MCP has it: the CLI's message and code (exit code, kind, details, hint), no stack. */
function errorResult(e: unknown) {
  const err = e instanceof RentctlError ? e : undefined;
  const message = e instanceof Error ? e.message : String(e);
  const code = exitCodeOf(e);
  const details = err?.details ?? [];
  const text = [
    `error: ${message}`,
    ...details.map((d) => `  ${d.field ? `${d.field}: ` : ""}${d.message}`),
    ...(err?.hint ? [`hint: ${err.hint}`] : []),
  ].join("\n");
  return {
    isError: true,
    content: [{ type: "text" as const, text }],
    structuredContent: {
      error: {
        message,
        code,
        kind: err?.kind ?? "internal",
        ...(details.length ? { details } : {}),
        ...(err?.hint ? { hint: err.hint } : {}),
      },
    },
  };
}
