import { spawn } from "node:child_process";
import { BIN } from "./cli.js";

/**
 * The setup the crash-safety tests share: the built CLI spawned with a handle
 * (a kill needs a process), stopped by a signal at a chosen moment (once the
 * server has seen N writes, once its row log has N rows, or after a random
 * time), and run again until it completes.
 */

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawn the built CLI and keep the handle (for kill / SIGINT tests). */
export function spawnBuilt(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<Ended>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

export type Spawned = ReturnType<typeof spawnBuilt>;

/** Poll until `check` holds (bounded). */
export async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Send `signal` (SIGKILL unless said) to a spawned run once `when()` holds, or
 * once `maxMs` passed, unless it ended first; then wait for its end.
 * `stopped`: the signal was sent. Throws when neither happened in `timeoutMs`.
 */
export async function stopWhen(
  run: Spawned,
  when: () => boolean,
  o: { signal?: NodeJS.Signals; maxMs?: number; timeoutMs?: number } = {},
): Promise<Ended & { stopped: boolean }> {
  let ended = false;
  void run.done.then(() => {
    ended = true;
  });
  const deadline = o.maxMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + o.maxMs;
  await waitFor(() => ended || when() || Date.now() >= deadline, o.timeoutMs ?? 60_000);
  const stopped = !ended;
  if (stopped) run.child.kill(o.signal ?? "SIGKILL");
  return { ...(await run.done), stopped };
}

/**
 * The kill loop of the crash-safety tests: run the built CLI again and again,
 * SIGKILLing each run at a random moment (after a random time, or once it has
 * sent a random number of writes), until `minKills` kills happened or a run
 * completed. Then rerun without kills (faults cleared after 5 tries by
 * `clearFaults`) until the command exits 0. Returns the kill count and the
 * last run.
 */
export async function killAndRerun(opts: {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Writes the server has seen so far. */
  writes: () => number;
  /** A killed run sends at most this many writes (random from 1). */
  maxWritesPerRun: number;
  /** A killed run lives at most this long (random from 300 ms). */
  maxMs: number;
  minKills?: number;
  clearFaults: () => void;
}): Promise<{ kills: number; last: { code: number | null; stderr: string } }> {
  const minKills = opts.minKills ?? 20;
  let kills = 0;
  let finished = false;
  let last: { code: number | null; stderr: string } = { code: -1, stderr: "" };
  for (let run = 0; run < 120 && !finished && kills < 2 * minKills; run++) {
    const start = opts.writes();
    const budget = 1 + Math.floor(Math.random() * opts.maxWritesPerRun);
    const r = await stopWhen(spawnBuilt(opts.args, opts.env), () => opts.writes() - start >= budget, {
      maxMs: 300 + Math.random() * (opts.maxMs - 300),
    });
    if (r.signal === "SIGKILL") kills++;
    else finished = r.code === 0;
    last = r;
    if (kills >= minKills && !finished) break;
  }
  for (let i = 0; i < 15 && !finished; i++) {
    if (i >= 5) opts.clearFaults();
    last = await spawnBuilt(opts.args, opts.env).done;
    finished = last.code === 0;
  }
  return { kills, last };
}
