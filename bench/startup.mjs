// Start-up and one catalog request: rentctl against bare Node + undici doing
// the same request. Prints figures (medians over N runs); asserts nothing.
//   npm run build && node bench/startup.mjs [runs]
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 20);
const body = JSON.stringify({
  list: [
    { id: 1, code: "EUR", symbol: "€" },
    { id: 2, code: "USD", symbol: "$" },
  ],
});
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const home = mkdtempSync(join(tmpdir(), "rentctl-bench-"));
const env = {
  ...process.env,
  RENTCTL_CONFIG_DIR: join(home, "c"),
  RENTCTL_DATA_DIR: join(home, "d"),
  RENTCTL_BASE_URL: base,
  NO_COLOR: "1",
};
const bare = join(home, "bare.mjs");
writeFileSync(
  bare,
  `import { request } from ${JSON.stringify(join(root, "node_modules/undici/index.js"))};\n` +
    `const r = await request(${JSON.stringify(`${base}/api/v302/currencies`)});\nprocess.stdout.write(JSON.stringify((await r.body.json()).list) + "\\n");\n`,
);

// spawnSync blocks this process, so the server answers from a child instead.
server.close();
const { spawn } = await import("node:child_process");
const srv = spawn(
  process.execPath,
  [
    "-e",
    `require("http").createServer((q,s)=>{s.writeHead(200,{"content-type":"application/json"});s.end(${JSON.stringify(body)})}).listen(${new URL(base).port},"127.0.0.1",()=>console.log("up"))`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
await new Promise((r) => srv.stdout.once("data", r));

function median(cmd, args) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const node = process.execPath;
const bin = join(root, "bin", "rentctl.js");
const rows = [
  ["node -e 0 (bare start-up)", median(node, ["-e", "0"])],
  ["rentctl --version", median(node, [bin, "--version"])],
  ["node + undici: GET currencies", median(node, [bare])],
  ["rentctl catalog currencies -o json", median(node, [bin, "catalog", "currencies", "-o", "json"])],
];
srv.kill();
console.log(`median of ${runs} runs each (ms)`);
for (const [name, ms] of rows) console.log(`${name.padEnd(40)} ${ms.toFixed(1)}`);
console.log(`ratio --version / bare node:            ${(rows[1][1] / rows[0][1]).toFixed(2)}`);
console.log(`ratio catalog request / node+undici:    ${(rows[3][1] / rows[2][1]).toFixed(2)}`);
