import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT, tempHome } from "../helpers/cli.js";

// The README's examples run as written: every `rentctl …` line of its sh
// blocks that needs no terminal, no real marketplace and no long-running
// server is run, in order, against the embedded sandbox, in one working
// directory (so `export fleet.csv` then `import fleet.csv` go together).

const SKIP: Array<[RegExp, string]> = [
  [/ wizard\b/, "interactive (needs a terminal)"],
  [/sandbox serve/, "a long-running server"],
  [/--env production|partner\.example/, "needs the real marketplace"],
  [/ \| |\[NAME\]|\.\.\.|…/, "a syntax summary, not a command"],
  [/^rentctl auth (login|logout|status|migrate)\b/, "changes or reads a real profile"],
  [/RENTCTL_BASE_URL=http:\/\/127\.0\.0\.1:4010/, "talks to a `sandbox serve` on a fixed port"],
  [/^rentctl undo \d/, "names an op number that depends on the manual edit step it follows"],
];

/** An example's documented outcome: `# exit 8`, or a refusal (`# refused …`, exit 2). */
function expectedCodes(raw: string): number[] {
  const comment = /#(.*)$/.exec(raw)?.[1] ?? "";
  const exit = /exit (\d+)/.exec(comment);
  if (/refus/i.test(comment)) return [2];
  if (exit) return [Number(exit[1])];
  return [0];
}

function examples(): Array<{ line: string; codes: number[] }> {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const out: Array<{ line: string; codes: number[] }> = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split("\n")) {
      const line = raw.replace(/\s+#.*$/, "").trim();
      if (!/^(npx )?rentctl /.test(line)) continue;
      out.push({ line: line.replace(/^npx /, ""), codes: expectedCodes(raw) });
    }
  }
  return out;
}

const home = tempHome();
const cwd = mkdtempSync(join(tmpdir(), "rentctl-readme-"));
afterAll(() => {
  home.cleanup();
  rmSync(cwd, { recursive: true, force: true });
});

function run(line: string): Promise<{ code: number; stderr: string }> {
  const args = line
    .replace(/^rentctl /, "")
    .match(/'[^']*'|"[^"]*"|\S+/g)!
    .map((a) => a.replace(/^['"]|['"]$/g, ""));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...home.env, RENTCTL_ENV: "sandbox" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe("the README's examples run as written", () => {
  const lines = examples();
  it("finds the examples", () => {
    expect(lines.length).toBeGreaterThan(10);
  });
  for (const { line, codes } of lines) {
    const skip = SKIP.find(([re]) => re.test(line));
    if (skip) {
      it.skip(`${line} (${skip[1]})`, () => {});
      continue;
    }
    it(line, async () => {
      const r = await run(line);
      expect(r.stderr).not.toMatch(/this is a bug|unexpected:/);
      // the documented outcome; a diff whose README step changed a price by hand may find nothing (0);
      // `get 42` names an id that may not exist (5, not found)
      const allowed = line.includes(" diff ") ? [...codes, 0] : line.includes(" get 42") ? [0, 5] : codes;
      expect(allowed, r.stderr).toContain(r.code);
    }, 60_000);
  }
});
