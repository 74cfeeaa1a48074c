/** The streams a command talks to, with their TTY flags. Tests pass fakes. */
export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  stdinTTY: boolean;
  /** Terminal width for tables (undefined when not a TTY). */
  columns?: number;
}

/** What a mutating command names before it acts: the environment, owner, profile in force and address. */
export interface ActingTarget {
  env: string;
  baseUrl: string;
  /** The sandbox embedded in this process: shown as `sandbox:` (its port changes each run). */
  embeddedSandbox?: boolean;
  userId?: number;
  profileName?: string;
}

/** Notes for humans, all on stderr (stdout carries results only). */
export interface Messages {
  /** Progress and notes; silent with --quiet. */
  info(text: string): void;
  warn(text: string): void;
  success(text: string): void;
  /** Say which environment and owner a mutating command acts on. */
  acting(target: ActingTarget, what: string): void;
}

export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // made on first use: process.stdin costs ~7 ms at start-up (a stream, and for a pipe a socket), and
    // most commands never read it nor ask whether it is a terminal (only those that may ask a question do)
    get stdin() {
      return process.stdin;
    },
    stdoutTTY: Boolean(process.stdout.isTTY),
    stderrTTY: Boolean(process.stderr.isTTY),
    get stdinTTY() {
      return Boolean(process.stdin.isTTY);
    },
    columns: process.stdout.columns,
  };
}

/** Read all of stdin as text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
