import type { BulkControl } from "./runner.js";

/**
 * Ctrl-C for a bulk job: the first SIGINT stops taking new rows and lets the
 * in-flight ones finish (their outcome is logged); the second abandons
 * them (their requests are aborted; a rerun reconciles them). While the job
 * runs, the process's own SIGINT handlers are set aside and restored after.
 */
export class Interrupter implements BulkControl {
  #stopped = false;
  #abort = new AbortController();
  #saved: Array<(...args: unknown[]) => void> = [];
  #handler = () => this.interrupt();
  #onStop?: (second: boolean) => void;
  #onTerminate: () => void;

  /** `onTerminate`: what a SIGTERM says before main's handler exits 143 (the rows done are in the row log). */
  constructor(onStop?: (second: boolean) => void, onTerminate: () => void = () => {}) {
    this.#onStop = onStop;
    this.#onTerminate = () => onTerminate();
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** What a SIGINT does (also callable directly, e.g. from tests). */
  interrupt(): void {
    if (!this.#stopped) {
      this.#stopped = true;
      this.#onStop?.(false);
    } else if (!this.#abort.signal.aborted) {
      this.#abort.abort();
      this.#onStop?.(true);
    }
  }

  install(): this {
    this.#saved = process.listeners("SIGINT") as Array<(...args: unknown[]) => void>;
    process.removeAllListeners("SIGINT");
    process.on("SIGINT", this.#handler);
    process.prependListener("SIGTERM", this.#onTerminate);
    return this;
  }

  /** Stop as on a first Ctrl-C when `signal` aborts (the library's AbortSignal), instead of handling SIGINT. */
  follow(signal: AbortSignal): this {
    const stop = () => this.interrupt();
    if (signal.aborted) stop();
    else {
      signal.addEventListener("abort", stop, { once: true });
      this.#detach = () => signal.removeEventListener("abort", stop);
    }
    return this;
  }

  #detach?: () => void;

  uninstall(): void {
    this.#detach?.();
    this.#detach = undefined;
    process.off("SIGINT", this.#handler);
    process.off("SIGTERM", this.#onTerminate);
    for (const l of this.#saved) process.on("SIGINT", l);
    this.#saved = [];
  }
}

/** The Ctrl-C (and SIGTERM) handling every bulk command installs: what it says on each, on `stderr`. */
export function interruptOnCtrlC(stderr: NodeJS.WritableStream, beforeMessage?: () => void): Interrupter {
  return new Interrupter(
    (second) => {
      // the progress bar first (it would redraw around the message and linger above the summary)
      beforeMessage?.();
      stderr.write(
        second
          ? "\nabandoning the requests in flight (a rerun reconciles them)\n"
          : "\nstopping: waiting for the requests in flight (Ctrl-C again to abandon them)\n",
      );
    },
    () => {
      // SIGTERM (a cancelled CI job, a supervisor) ends the process at once, exit 143: say how to finish
      beforeMessage?.();
      stderr.write("\nterminated: the rows done are recorded; rerun the same command to finish\n");
    },
  ).install();
}
