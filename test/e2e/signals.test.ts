import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, tempHome } from "../helpers/cli.js";

// Real processes: a closed pipe and signals, as scripts meet them.

let server: Server;
let base = "";
let home: ReturnType<typeof tempHome>;
const big = JSON.stringify({
  list: Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, code: `C${i}`, name: `Currency number ${i}` })),
});

beforeAll(async () => {
  home = tempHome();
  server = createServer((req, res) => {
    if (req.url?.includes("slow")) return; // never answers: for the signal tests
    if (req.url?.includes("vehicle")) {
      // 40 pages, each a little late, so the CLI is still writing (to both streams) when head has gone
      const q = new URL(req.url, "http://x").searchParams;
      const offset = Number(q.get("offset") ?? 0);
      const limit = Number(q.get("limit") ?? 15);
      const data = Array.from({ length: Math.max(0, Math.min(limit, 4000 - offset)) }, (_, i) => ({
        id: offset + i + 1,
      }));
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data, total: 4000, per_page: limit }));
      }, 5);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(big);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  home.cleanup();
});

// The test server runs in this process: spawn asynchronously (spawnSync would block it).
function sh(cmd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", cmd], { env: home.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", () => resolve({ stdout, stderr }));
  });
}

describe("a closed pipe ends the process quietly", () => {
  for (const redirect of ["", "2>&1"]) {
    it(`rentctl … ${redirect} | head -3 exits 0 (5 runs)`, async () => {
      for (let i = 0; i < 5; i++) {
        const cmd = `RENTCTL_API_KEY=k "${process.execPath}" "${BIN}" --base-url ${base} --env test --user 7 -v vehicle list --all -q ${redirect} | head -3 >/dev/null; echo "\${PIPESTATUS[0]}"`;
        const r = await sh(cmd);
        expect(r.stdout.trim()).toBe("0");
        expect(r.stderr).not.toMatch(/EPIPE|this is a bug/);
      }
    }, 60_000);
  }
});

describe("signals", () => {
  const waitForRequest = (child: ReturnType<typeof spawn>) =>
    new Promise<void>((resolve) => {
      let err = "";
      child.stderr?.on("data", (d) => {
        err += d;
        if (err.includes("→ GET")) resolve();
      });
    });

  for (const [signal, code, text] of [
    ["SIGTERM", 143, ""],
    ["SIGINT", 130, "interrupted"],
  ] as const) {
    it(`${signal} exits ${code}`, async () => {
      const child = spawn(
        process.execPath,
        [BIN, "--base-url", `${base}/slow`, "--env", "test", "-v", "catalog", "currencies"],
        { env: home.env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      await waitForRequest(child);
      child.kill(signal);
      const exit = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
      expect(exit).toBe(code);
      if (text) expect(stderr).toContain(text);
      expect(stderr).not.toContain("this is a bug");
    }, 60_000);
  }
});
