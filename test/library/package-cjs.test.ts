import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The packed package as a CommonJS integrator gets it (issue 40, item 5): `npm pack` (as prepack
 * leaves the manifest: no `prepare`), installed into a scratch `npm init -y` project, then
 * `require("rentctl")` and `require("rentctl/sandbox")` list vehicles from createSandbox(), and a
 * `.cts` file type-checks against the package's types under `module nodenext`. Needs dist/ built
 * (npm test builds first) and the npm cache or registry for the dependencies.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let dir: string;
let tarball: string;
let installStderr: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rentctl-cjs-"));
  const packDir = join(dir, "pack");
  const project = join(dir, "project");
  await run("mkdir", ["-p", packDir, project]);
  // The package as prepack leaves it, staged in a copy: the root package.json is never rewritten
  // while other tests run (a rebuild would race them too: dist/ is built already).
  const stage = join(dir, "stage");
  await run("mkdir", ["-p", stage]);
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
    files: string[];
    scripts: Record<string, string>;
  };
  delete manifest.scripts.prepare;
  await writeFile(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const f of [...manifest.files, "README.md", "LICENSE"])
    await cp(join(root, f), join(stage, f), { recursive: true });
  await run(npm, ["pack", "--ignore-scripts", "--pack-destination", packDir], { cwd: stage });
  tarball = join(packDir, (await readdir(packDir))[0]!);
  await run(npm, ["init", "-y"], { cwd: project });
  const install = await run(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], {
    cwd: project,
  });
  installStderr = install.stderr;
  dir = project;
}, 300_000);

afterAll(async () => {
  if (dir) await rm(join(dir, ".."), { recursive: true, force: true });
});

describe("the packed package from a CommonJS project", () => {
  it("installs without an npm warning, with LICENSE in the tarball", async () => {
    expect(installStderr).not.toMatch(/npm warn/i);
    const { stdout } = await run("tar", ["-tzf", tarball]);
    expect(stdout.split("\n")).toContain("package/LICENSE");
    expect(stdout).not.toMatch(/package\/scripts\//);
  });

  it("require('rentctl') and require('rentctl/sandbox') list vehicles from createSandbox()", async () => {
    await writeFile(
      join(dir, "list.js"),
      `const { createClient } = require("rentctl");
const { createSandbox } = require("rentctl/sandbox");
(async () => {
  const sb = await createSandbox();
  const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
  try {
    for await (const page of client.vehicles.list()) console.log(JSON.stringify(page.map((v) => v.price_per_day)));
  } finally {
    await client.close();
    await sb.close();
  }
})();
`,
    );
    const { stdout, stderr } = await run(process.execPath, ["list.js"], { cwd: dir });
    expect(stderr).toBe("");
    const prices = JSON.parse(stdout) as unknown[];
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(typeof p).toBe("number");
  });

  it("a .cts file type-checks against the package's types (strict, module nodenext)", async () => {
    await writeFile(
      join(dir, "typed.cts"),
      `import { createClient } from "rentctl";
import { createSandbox } from "rentctl/sandbox";
export async function firstPrice(): Promise<number | undefined> {
  const sb = await createSandbox();
  const client = createClient({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId });
  for await (const page of client.vehicles.list()) {
    const price: number | undefined = page[0]?.price_per_day;
    return price;
  }
  return undefined;
}
`,
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const args = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
    const r = await run(process.execPath, [tsc, ...args, "typed.cts"], { cwd: dir }).catch((e) => e);
    expect(`${r.stdout ?? ""}${r.stderr ?? ""}`).toBe("");
  });
});
