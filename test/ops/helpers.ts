import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { libraryContext } from "../../src/library/context.js";
import { type CreateSandboxOptions, createSandbox, type Sandbox } from "../../src/library/sandbox.js";
import type { OpContext } from "../../src/ops/context.js";

/**
 * An operation's context against an in-process sandbox, in this test process (no spawned CLI):
 * the library's context (src/library/context.ts), with a data dir so the undo history is kept.
 */
export interface OpBench {
  sb: Sandbox;
  ctx: OpContext;
  /** The operations of the requests the sandbox answered since `mark()`. */
  sent(): string[];
  mark(): void;
  close(): Promise<void>;
}

export async function opBench(opts: CreateSandboxOptions = {}): Promise<OpBench> {
  const sb = await createSandbox(opts);
  const dataDir = await mkdtemp(join(tmpdir(), "rentctl-ops-"));
  const lib = libraryContext({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId, dataDir });
  let from = 0;
  return {
    sb,
    ctx: lib.deps,
    sent: () =>
      sb
        .requests()
        .slice(from)
        .map((r) => r.operation),
    mark: () => {
      from = sb.requests().length;
    },
    close: async () => {
      await lib.close();
      await sb.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
