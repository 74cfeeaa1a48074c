import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/**
 * Processes that each run the embedded sandbox on one data file and stay
 * alive between requests (what a wizard or a long import does), to which a
 * test sends requests directly: test/helpers/embedded-child.ts, bundled
 * once per test file with esbuild.
 */

export interface EmbeddedProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr(): string;
  /** End its stdin: it closes the sandbox (folding the journal if worth it) and exits. */
  stop(): Promise<number | string>;
}

let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/** Remove the bundle (in the test file's afterAll). */
export function removeEmbeddedBundle(): void {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
  bundleDir = undefined;
  bundled = undefined;
}

function bundle(): Promise<string> {
  bundled ??= (async () => {
    bundleDir = mkdtempSync(join(tmpdir(), "rentctl-embedded-child-"));
    const out = join(bundleDir, "child.mjs");
    await build({
      entryPoints: [join(import.meta.dirname, "embedded-child.ts")],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "warning",
    });
    return out;
  })();
  return bundled;
}

export async function spawnEmbedded(dataFile: string, env: NodeJS.ProcessEnv = {}): Promise<EmbeddedProcess> {
  const script = await bundle();
  const child = spawn(process.execPath, [script, dataFile], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    void exited.then((code) => reject(new Error(`the embedded sandbox process exited ${code}: ${err}`)));
  });
  return {
    child,
    url,
    stderr: () => err,
    stop: () => {
      child.stdin.end();
      return exited;
    },
  };
}
