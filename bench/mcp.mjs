// `rentctl mcp` against the CLI (issue "rentctl mcp"), measured side by side in one run against one
// `rentctl sandbox serve`: the server from spawn to `initialize` answered plus one list_vehicles call
// (the SDK's own Client over stdio), against `rentctl vehicle list -o json` from spawn to exit (the
// machine format, issue 42). Goal: ≤ 1.2× the CLI's own time. Prints min / median / max and the ratio
// of medians with PASS/MISS (the table view alongside); exits 0 either way.
// Also: a further call on the running server (what each question after the first costs an assistant).
//   npm run build && node bench/mcp.mjs [runs]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { bin, serveSandbox } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 10);
const home = mkdtempSync(join(tmpdir(), "rentctl-bench-mcp-"));
const srv = await serveSandbox(home);
const owner = srv.owners[0];
const env = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_ENV: "sandbox",
  RENTCTL_BASE_URL: srv.url,
  RENTCTL_USER_ID: String(owner.user_id),
  RENTCTL_API_KEY: owner.api_key,
  NO_COLOR: "1",
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0].toFixed(1)} / median ${median(s).toFixed(1)} / max ${s.at(-1).toFixed(1)} ms`;
};

async function mcpOnce() {
  const t = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp"], env, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport); // initialize answered
  const init = performance.now() - t;
  const r = await client.callTool({ name: "list_vehicles", arguments: { limit: 20 } });
  if (r.isError) throw new Error(r.content[0].text);
  const call = performance.now() - t;
  const t2 = performance.now();
  await client.callTool({ name: "list_vehicles", arguments: { limit: 20 } });
  const again = performance.now() - t2;
  await client.close();
  return { init, call, again };
}

function cliOnce(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, "vehicle", "list", "--limit", "20", ...args], {
    env: { ...env, COLUMNS: "200" },
  });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return performance.now() - t;
}

// list_vehicles resolves names as the table view does: the CLI's table is "the same", json the floor
await mcpOnce();
cliOnce([]);
cliOnce(["-o", "json"]);
const mcp = [];
const table = [];
const json = [];
for (let i = 0; i < runs; i++) {
  mcp.push(await mcpOnce());
  table.push(cliOnce([]));
  json.push(cliOnce(["-o", "json"]));
}
const call = median(mcp.map((m) => m.call));
const ratio = call / median(json);
console.log(`rentctl mcp vs the CLI (${runs} runs each, one sandbox serve)`);
console.log(`  CLI: vehicle list -o json, spawn to exit:                 ${spread(json)}`);
console.log(`  CLI: vehicle list (table, names resolved), spawn to exit: ${spread(table)}`);
console.log(`  mcp: spawn to initialize answered:                        ${spread(mcp.map((m) => m.init))}`);
console.log(`  mcp: spawn to initialize + one list_vehicles call:        ${spread(mcp.map((m) => m.call))}`);
console.log(`  mcp: a further list_vehicles call on the running server:  ${spread(mcp.map((m) => m.again))}`);
console.log(
  `  ratio ${ratio.toFixed(2)}× the CLI's -o json (goal ≤ 1.2×): ${ratio <= 1.2 ? "PASS" : "MISS"}; ${(call / median(table)).toFixed(2)}× its table`,
);
await srv.stop();
rmSync(home, { recursive: true, force: true });
