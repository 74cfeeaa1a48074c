import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT, tempHome } from "../helpers/cli.js";

/**
 * The examples of every help page (dist/help, rendered at build time), read
 * as a person copies them: continuation lines joined. Every one is well
 * formed (no dangling `\`, a catalog that needs a brand names one); the
 * examples that read (catalogs, lists, cards, the board, completion
 * scripts) are run as written, in a shell, against the embedded sandbox
 * (issue 26, part 8). Examples that change data or need files, keys or a
 * terminal are not run here yet.
 */

function examples(): Array<{ page: string; line: string }> {
  const dir = join(ROOT, "dist", "help");
  const out: Array<{ page: string; line: string }> = [];
  for (const page of readdirSync(dir)) {
    const m = /\nExamples:\n((?: {2}.*\n)+)/.exec(readFileSync(join(dir, page), "utf8"));
    if (!m) continue;
    let cur = "";
    for (const l of m[1]!.split("\n").filter(Boolean)) {
      if (l.startsWith("      ")) cur = `${cur.replace(/ \\$/, "")} ${l.trim()}`;
      else {
        if (cur) out.push({ page, line: cur });
        cur = l.trim();
      }
    }
    if (cur) out.push({ page, line: cur });
  }
  return out;
}

/** Read-only examples: run as written. */
const RUNS = [
  /^rentctl catalog \S+( --(segment|brand|model|locale) \S+)*( -o json)?$/,
  /^rentctl vehicle list( |$)/,
  /^rentctl vehicle get /,
  /^rentctl vehicle calendar --board/,
  /^rentctl extra (list|options)( |$)/,
  /^rentctl (profile list|sandbox info|api --list|api vehicles\/brands)/,
  /^rentctl completion (bash|zsh|fish)$/,
];

const home = tempHome();
afterAll(() => home.cleanup());

describe("help examples", () => {
  const all = examples();

  it("are well formed: no dangling continuation, no bare catalog that needs a parameter", () => {
    expect(all.length).toBeGreaterThan(80);
    const bad = all.filter(({ line }) => /\\$/.test(line) || /^rentctl catalog (models|equipments)$/.test(line));
    expect(bad).toEqual([]);
    // the promotion example writes the file in its own format, not ndjson into a .yaml name
    expect(all.some(({ line }) => /> fleet\.yaml/.test(line))).toBe(false);
  });

  it("the read-only ones run as written against the sandbox", () => {
    const bin = join(home.dir, "bin");
    mkdirSync(bin, { recursive: true });
    const shim = join(bin, "rentctl");
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(shim, 0o755);
    const env = { ...home.env, PATH: `${bin}:${process.env.PATH}`, RENTCTL_ENV: "sandbox", COLUMNS: "80" };
    // the examples name vehicle 42 and "B-SC 1001": the sandbox's first vehicle is B-SC 1001
    const run = all.filter(({ line }) => RUNS.some((re) => re.test(line)));
    expect(run.length).toBeGreaterThan(30);
    const failed: string[] = [];
    for (const { page, line } of run) {
      const cmd = line.replace(/\bget 42\b/, "get 1");
      const r = spawnSync("bash", ["-o", "pipefail", "-c", cmd], { env, cwd: home.dir, encoding: "utf8" });
      if (r.status !== 0) failed.push(`${page}: ${cmd} -> ${r.status}: ${r.stderr.split("\n")[0]}`);
    }
    expect(failed).toEqual([]);
  }, 240_000);
});
