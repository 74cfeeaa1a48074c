import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 42 item 3: a program that imports `rentctl` keeps its own V8: the
 * library sets no V8 flag and runs no gc() in its host, however long it
 * walks (memory is bounded by streaming, never by forced collections). The
 * host is a child process of its own (V8 flags are process-wide): its
 * setFlagsFromString and gc are spies installed before the import.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

const HOST = `
import v8 from "node:v8";
import vm from "node:vm";
import { syncBuiltinESMExports } from "node:module";
const calls = { flags: [], gc: 0 };
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (f) => { calls.flags.push(f); return setFlags(f); };
const run = vm.runInNewContext;
vm.runInNewContext = (code, ...rest) => { if (/\\bgc\\b/.test(String(code))) calls.gc++; return run(code, ...rest); };
globalThis.gc = () => { calls.gc++; };
syncBuiltinESMExports();
const { createClient } = await import("rentctl");
const { createSandbox } = await import("rentctl/sandbox");
const sb = await createSandbox();
try {
  const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
  let rows = 0;
  for await (const page of client.vehicles.list({ all: true, limit: 2 })) rows += page.length;
  calls.rows = rows;
} finally {
  await sb.close();
}
process.stdout.write(JSON.stringify(calls));
`;

describe("importing rentctl in a host process", () => {
  it("sets no V8 flag and runs no gc(), through a whole paged listing", () => {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", HOST], { cwd: root, encoding: "utf8" });
    const calls = JSON.parse(out) as { flags: string[]; gc: number; rows: number };
    expect(calls.rows).toBeGreaterThan(2); // more than one page was walked
    expect(calls.flags).toEqual([]);
    expect(calls.gc).toBe(0);
  });

  it("no module of the library's build can set a flag or collect (the walk above may be too short to show it)", () => {
    const dir = join(root, "dist", "lib");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const code = readFileSync(join(dir, f), "utf8");
      expect(code, f).not.toMatch(/setFlagsFromString|expose-gc|semi-space|settleHeap/);
    }
  });
});
