// Regenerates the checked-in shell completion scripts under completions/ from
// the built CLI (run `npm run build` first): each file is exactly what
// `rentctl completion <shell>` prints. With --check, changes nothing and
// exits 1 when a checked-in file is out of date.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const FILES = { bash: "completions/rentctl.bash", zsh: "completions/_rentctl", fish: "completions/rentctl.fish" };
const check = process.argv.includes("--check");

if (!existsSync(`${root}dist/rentctl.cjs`)) {
  console.error("dist/rentctl.cjs is missing: run `npm run build` first");
  process.exit(2);
}
let stale = 0;
for (const [shell, file] of Object.entries(FILES)) {
  const res = spawnSync(process.execPath, [`${root}bin/rentctl.js`, "completion", shell], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (res.status !== 0) {
    console.error(`rentctl completion ${shell} failed (exit ${res.status}):\n${res.stderr}`);
    process.exit(1);
  }
  const path = `${root}${file}`;
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  if (current === res.stdout) continue;
  if (check) {
    console.error(`${file} is out of date`);
    stale++;
  } else {
    writeFileSync(path, res.stdout);
    console.log(`wrote ${file}`);
  }
}
if (stale) {
  console.error("regenerate with: npm run build && node scripts/gen-completions.mjs");
  process.exit(1);
}
