import type * as cliProgressModule from "cli-progress";
/**
 * The progress bar of a bulk job: on stderr, only when stderr is a TTY (and
 * not with --quiet); rows done / total, rate and ETA. Without a TTY it is a
 * no-op: the summary line is the only output.
 */
export interface Progress {
  tick(): void;
  stop(): void;
}

const NONE: Progress = { tick: () => {}, stop: () => {} };

export async function createProgress(
  stream: NodeJS.WritableStream,
  enabled: boolean,
  total: number,
  label: string,
): Promise<Progress> {
  if (!enabled || total === 0) return NONE;
  // A seam: cli-progress loads only for a bar on a terminal.
  // CommonJS: under the esbuild bundle only `default` is there.
  const mod = (await import("cli-progress")) as typeof cliProgressModule & {
    default?: typeof cliProgressModule;
  };
  const { SingleBar } = typeof mod.SingleBar === "function" ? mod : mod.default!;
  const started = Date.now();
  const bar = new SingleBar({
    stream: stream as NodeJS.WritableStream & { isTTY?: boolean },
    format: `${label} {bar} {value}/{total} · {rate}/s · ETA {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 10,
    noTTYOutput: false,
  });
  bar.start(total, 0, { rate: "0" });
  let done = 0;
  let stopped = false;
  return {
    tick: () => {
      done++;
      if (stopped) return; // cleared on Ctrl-C: the rows still finishing do not draw it again
      const secs = (Date.now() - started) / 1000;
      bar.update(done, { rate: secs > 0 ? (done / secs).toFixed(1) : "0" });
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      bar.stop(); // clearOnComplete: the line is cleared
    },
  };
}
