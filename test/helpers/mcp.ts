// biome-ignore-all lint/suspicious/noExplicitAny: tool results are JSON, read field by field by the assertions
import { PassThrough, Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { IO } from "../../src/base/io.js";
import { createDeps, type OwnedDeps } from "../../src/deps.js";
import type { McpOptions } from "../../src/mcp/server.js";

/** `rentctl mcp` in this process: the server of src/mcp over an in-memory transport, driven by the SDK's Client. */
export interface InProcessMcp {
  client: Client;
  deps: OwnedDeps;
  /** What the server said on stderr (its log lines). */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: any }>;
  close(): Promise<void>;
}

export async function inProcessMcp(env: NodeJS.ProcessEnv, opts: McpOptions = {}): Promise<InProcessMcp> {
  const err = new PassThrough();
  let stderr = "";
  err.on("data", (d) => {
    stderr += d;
  });
  const io: IO = {
    stdout: new PassThrough(),
    stderr: err,
    stdin: Readable.from([]),
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  const deps = createDeps(io, env, {});
  const [{ createMcpServer }, sdk] = await Promise.all([
    import("../../src/mcp/server.js"),
    import("../../src/mcp/sdk.js"),
  ]);
  const { server } = await createMcpServer(deps, opts, sdk);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "rentctl-test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    deps,
    stderr: () => stderr,
    call: async (name, args = {}) => {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ type: string; text: string }>;
        structuredContent?: unknown;
      };
      return { isError: Boolean(r.isError), text: r.content[0]?.text ?? "", data: r.structuredContent };
    },
    close: async () => {
      await client.close();
      await server.close();
      await deps.runExitHooks();
    },
  };
}
