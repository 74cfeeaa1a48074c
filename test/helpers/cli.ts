import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough, Readable } from "node:stream";
import type { IO } from "../../src/base/io.js";
import { main } from "../../src/main.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = join(ROOT, "bin", "rentctl.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A private config and data directory, so tests never touch $HOME. */
export function tempHome(): { dir: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "rentctl-test-"));
  return {
    dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      RENTCTL_CONFIG_DIR: join(dir, "config"),
      RENTCTL_DATA_DIR: join(dir, "data"),
      // keys go to a stand-in keychain (a 0600 file): test machines have no system keychain
      RENTCTL_KEYCHAIN: `file:${join(dir, "keychain.json")}`,
      NO_COLOR: "1",
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `rentctl --env sandbox ...` in-process on the embedded sandbox, its data in a temp home made on
 * first use (each call sees the calls before); `cleanup` in the test file's afterEach.
 */
export function sandboxCli(): {
  cli: (...args: string[]) => Promise<CliResult>;
  dir: () => string;
  cleanup: () => void;
} {
  let home: ReturnType<typeof tempHome> | undefined;
  const at = () => {
    home ??= tempHome();
    return home;
  };
  return {
    cli: (...args) => runMain(["--env", "sandbox", ...args], at().env),
    dir: () => at().dir,
    cleanup: () => {
      home?.cleanup();
      home = undefined;
    },
  };
}

/** Spawn the built CLI (dist/ must exist: `npm test` builds first). */
export function runBuilt(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  if (!existsSync(join(ROOT, "dist", "rentctl.cjs")))
    throw new Error("dist/rentctl.cjs is missing: run `npm run build` (npm test does)");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      // No Node warning in any path (an unclosed file handle, a deprecation): every end-to-end run checks it.
      const warning = /^\(node:\d+\) .*$/m.exec(stderr);
      if (warning) reject(new Error(`rentctl ${args.join(" ")}: Node printed a warning: ${warning[0]}`));
      else resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input ?? "");
  });
}

/** Run `main` in-process with fake streams (no spawn): how most command tests run. */
export async function runMain(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: {
    input?: string;
    /** `true`: all three streams are terminals; or say it per stream. */
    tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
    overrides?: Parameters<typeof main>[1] extends infer O ? (O extends { overrides?: infer X } ? X : never) : never;
  } = {},
): Promise<CliResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = "";
  let stderr = "";
  out.on("data", (d) => {
    stdout += d;
  });
  err.on("data", (d) => {
    stderr += d;
  });
  const io: IO = {
    stdout: out,
    stderr: err,
    stdin: Readable.from(opts.input !== undefined ? [opts.input] : []),
    stdoutTTY: isTTY(opts.tty, "stdout"),
    stderrTTY: isTTY(opts.tty, "stderr"),
    stdinTTY: isTTY(opts.tty, "stdin"),
    columns: 120,
  };
  const code = await main(args, { io, env, overrides: opts.overrides });
  return { code, stdout, stderr };
}

function isTTY(
  tty: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean } | undefined,
  stream: "stdin" | "stdout" | "stderr",
): boolean {
  return typeof tty === "object" ? Boolean(tty[stream]) : Boolean(tty);
}

/** A sandbox on an ephemeral port, in memory, and the env that points the CLI at it. */
export async function sandboxEnv(): Promise<{
  sb: RunningSandbox;
  env: NodeJS.ProcessEnv;
  cleanup: () => Promise<void>;
}> {
  const home = tempHome();
  const sb = await startSandbox({ host: "127.0.0.1", port: 0, dataFile: null });
  return {
    sb,
    env: { ...home.env, RENTCTL_ENV: "sandbox", RENTCTL_BASE_URL: sb.url },
    cleanup: async () => {
      await sb.close();
      home.cleanup();
    },
  };
}

export function json<T = unknown>(s: string): T {
  return JSON.parse(s) as T;
}

/** The argv of `extra create` with every field the command requires (defaults: a child seat, 8 EUR a day, 2 of them). */
export function extraCreateArgs(
  o: {
    option?: string | number;
    price?: string | number;
    currency?: string | number;
    period?: number;
    quantity?: number;
  } = {},
): string[] {
  const { option = "child seat", price = 8, currency = "EUR", period = 1, quantity = 2 } = o;
  return [
    "extra",
    "create",
    "--option",
    String(option),
    "--price",
    String(price),
    "--currency",
    String(currency),
    "--period",
    String(period),
    "--quantity",
    String(quantity),
  ];
}
