import type { Readable, Writable } from "node:stream";
import { hintIn, TOOL_HINTS } from "../api/errors.js";
import { exitCodeOf, RentctlError, UsageError } from "../base/errors.js";
import { VERSION } from "../base/version.js";
import type { Deps } from "../deps.js";
import { type PlanTarget, planTarget } from "../plans/saved-plan.js";
import { toolInput } from "./schemas.js";
import type * as sdkModule from "./sdk.js";
import { DEFAULT_PLAN_TTL_MS, PlanTokens } from "./tokens.js";
import { TOOLS, type Tool, type ToolContext } from "./tools.js";

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
 * `rentctl mcp`: an MCP server on stdio (the official SDK's McpServer and
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
    // the target chosen through the environment goes along, and the config and data dirs (the profiles, the
    // sandbox's data, the undo history the server shares with the CLI); never the key: it stays in the
    // keychain or the caller's env
    const env = Object.fromEntries(
      [
        "RENTCTL_PROFILE",
        "RENTCTL_ENV",
        "RENTCTL_BASE_URL",
        "RENTCTL_USER_ID",
        "RENTCTL_LOCALE",
        "RENTCTL_CONFIG_DIR",
        "RENTCTL_DATA_DIR",
      ].flatMap((k) => (deps.env[k] ? [[k, deps.env[k]!]] : [])),
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
  const { server, tools, target, canWrite } = await createMcpServer(deps, opts, await sdk);
  const { StdioServerTransport } = await sdk;
  const transport = new StdioServerTransport(
    deps.io.stdin as unknown as Readable,
    deps.io.stdout as unknown as Writable,
  );
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    deps.io.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  deps.msg.info(
    `rentctl mcp: serving owner ${target.owner} on ${target.env} over stdio (${canWrite ? `writes through reviewed plans, at most ${maxChanges} changes a plan` : "read-only"}; ${tools.length} tools)`,
  );
  await closed;
  await server.close().catch(() => {});
}

type Sdk = typeof sdkModule;

/**
 * The MCP server of a target, its tools registered from their declarations
 * (McpServer.registerTool: input and output schemas, annotations), not yet
 * connected: `serve` connects it to stdio, a test to an in-memory transport.
 * Without writes allowed, the write tools are not registered (not listed);
 * calling one is refused with the reason.
 */
export async function createMcpServer(
  deps: Deps,
  opts: McpOptions,
  sdk: Sdk,
): Promise<{ server: InstanceType<Sdk["McpServer"]>; tools: Tool[]; target: PlanTarget; canWrite: boolean }> {
  const { McpServer, z } = sdk;
  const writes = writesOf(opts.allowWrites);
  const maxChanges = opts.maxChanges ?? DEFAULT_MAX_CHANGES;
  const target = await planTarget(deps);
  const tokens = new PlanTokens(opts.planTtl === undefined ? DEFAULT_PLAN_TTL_MS : opts.planTtl * 60_000, deps.now);
  const canWrite = writes === "all" || (writes === "sandbox" && target.env === "sandbox");
  if (writes === "sandbox" && !canWrite)
    deps.msg.warn(`--allow-writes=sandbox: the target is ${target.env}, so this server is read-only`);
  const ctx: ToolContext = { deps, tokens, maxChanges, writes: canWrite ? writes : "none", target: async () => target };
  const tools = TOOLS.filter((t) => !t.writes || canWrite);
  const instructions = [
    `rentctl manages the vehicle rental inventory of owner ${target.owner} on ${target.env} (Vehicle Rental Partner API v302): vehicles, their prices and availability, and paid extras.`,
    "Read with list_vehicles (where expressions select vehicles), get_vehicle, list_extras, get_extra, vehicle_calendar, search_catalog (ids by name), export_account, undo_history.",
    "To change anything, call plan_changes: it sends nothing and returns a markdown summary and a plan token. Show the summary to the person and ask before applying.",
    canWrite
      ? `apply_plan(token) runs exactly the reviewed plan (single use, expires in ${opts.planTtl ?? 15} minutes, refused if the account changed since or if it has more than ${maxChanges} changes); undo(op) reverts one op.`
      : `This server is read-only (${writes === "sandbox" ? "started with --allow-writes=sandbox, and the target is not the sandbox" : "started without --allow-writes"}): plans can be made and reviewed here, and the person applies one with \`rentctl account apply --plan FILE\` (plan_changes gives the file).`,
  ].join("\n");
  const server = new McpServer({ name: "rentctl", version: VERSION }, { capabilities: { tools: {} }, instructions });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: toolInput(z, tool.name, tool.input(z)),
        outputSchema: outputSchema(z, tool.output(z)),
        annotations: { title: tool.title, ...tool.annotations },
      },
      // biome-ignore lint/suspicious/noExplicitAny: the arguments as the input schema validated them
      async (args: any) => {
        const started = Date.now();
        const log = (what: string) =>
          deps.io.stderr.write(`rentctl mcp: ${tool.name}: ${what} (${Date.now() - started} ms)\n`);
        try {
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
      },
    );
  }
  refuseUnoffered(server, (name) =>
    !tools.some((t) => t.name === name) && TOOLS.some((t) => t.name === name && t.writes)
      ? new UsageError(
          `${name} is not offered: this server was started without --allow-writes${writes === "sandbox" ? " (=sandbox, and the target is not the sandbox)" : ""}; nothing was sent`,
        )
      : undefined,
  );
  return { server, tools, target, canWrite };
}

/**
 * A tool's outputSchema: its result's members, or (a failure, isError) one
 * `error` member as errorResult writes it. A client validates the
 * structuredContent of both against the one schema, so it lists both forms:
 * the members are required unless `error` is there (anyOf in the listed JSON
 * Schema, a refinement where the server checks its own answers).
 */
export function outputSchema(z: Sdk["z"], shape: Record<string, import("zod/v4").ZodType>) {
  const required = Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success);
  const optional = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()]));
  const error = z
    .object({
      message: z.string(),
      code: z.int().describe("The exit code the CLI gives for it (2 usage, 4 authentication, 5 not found, 8 stale, …)"),
      kind: z.string().describe("The error's kind, as the CLI's -o json error object has it"),
      details: z.array(z.object({ field: z.string().optional(), message: z.string() })).optional(),
      hint: z.string().optional(),
    })
    .describe("Set when the call failed (isError); the result's members are then absent");
  return z
    .object({ ...optional, error: error.optional() })
    .refine((v) => v.error !== undefined || required.every((k) => (v as Record<string, unknown>)[k] !== undefined), {
      message: `a result has ${required.join(", ")}, or an error`,
    })
    .meta({ anyOf: [{ required }, { required: ["error"] }] });
}

/**
 * A call of a tool this server does not offer (a write tool on a read-only
 * server) is answered with the reason, as a tool error, instead of the SDK's
 * "not found". The SDK has no hook for it: the tools/call handler McpServer
 * installed is wrapped (when it is where this SDK version keeps it).
 */
function refuseUnoffered(server: InstanceType<Sdk["McpServer"]>, reason: (name: string) => UsageError | undefined) {
  type Handler = (req: { params?: { name?: string } }, extra: unknown) => Promise<unknown>;
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const sdkCall = handlers?.get("tools/call");
  if (!handlers || !sdkCall) return;
  handlers.set("tools/call", async (req, extra) => {
    const refused = reason(String(req.params?.name ?? ""));
    return refused ? errorResult(refused) : sdkCall(req, extra);
  });
}

/** A tool error as MCP has it: the CLI's message and code (exit code, kind, details, hint), no stack. */
function errorResult(e: unknown) {
  const err = e instanceof RentctlError ? e : undefined;
  const message = e instanceof Error ? e.message : String(e);
  const code = exitCodeOf(e);
  const details = err?.details ?? [];
  // an API error's hint in the tools' words (the server's client is the CLI's)
  const hint = err ? hintIn(err, TOOL_HINTS) : undefined;
  const text = [
    `error: ${message}`,
    ...details.map((d) => `  ${d.field ? `${d.field}: ` : ""}${d.message}`),
    ...(hint ? [`hint: ${hint}`] : []),
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
        ...(hint ? { hint } : {}),
      },
    },
  };
}
