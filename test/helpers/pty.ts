import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { BIN } from "./cli.js";

/**
 * The built CLI (`node bin/rentctl.js`) in a real pseudo-terminal: Python's
 * `pty` gives it a terminal on stdin and stderr; stdout goes to a file, so a
 * test also sees what stdout carries. Every step waits for text on the
 * screen (bounded), never for time.
 */

// Runs argv[2:] on a new pty (120x40) with stdout sent to argv[1]; relays our stdin to it
// and its output to our stdout; exits with the child's exit code.
const RELAY = `
import fcntl, os, pty, select, struct, sys, termios
out, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(o, 1)
    os.execvp(argv[0], argv)
fds = [fd, 0]
while True:
    r, _, _ = select.select(fds, [], [])
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(1, data)
    if 0 in r:
        data = os.read(0, 65536)
        if data:
            os.write(fd, data)
        else:
            fds = [fd]
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

export const STEP_MS = 15_000;

export class Terminal {
  readonly child: ChildProcessWithoutNullStreams;
  #raw = "";
  #pos = 0;
  #waiters: Array<() => void> = [];
  readonly exit: Promise<number>;

  constructor(args: string[], env: NodeJS.ProcessEnv, stdoutFile: string) {
    this.child = spawn("python3", ["-c", RELAY, stdoutFile, process.execPath, BIN, ...args], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const onData = (d: Buffer) => {
      this.#raw += d.toString("utf8");
      for (const w of this.#waiters.splice(0)) w();
    };
    this.child.stdout.on("data", onData);
    this.child.stderr.on("data", onData);
    this.exit = new Promise((res) => this.child.on("exit", (code) => res(code ?? -1)));
    this.exit.then(() => {
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  get screen(): string {
    return stripVTControlCharacters(this.#raw);
  }

  /** Wait until `re` appears after what was already matched; move past it. */
  async waitFor(re: RegExp, what = String(re)): Promise<RegExpExecArray> {
    const deadline = Date.now() + STEP_MS;
    let exited = false;
    this.exit.then(() => {
      exited = true;
    });
    for (;;) {
      const text = this.screen;
      const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
      g.lastIndex = this.#pos;
      const m = g.exec(text);
      if (m) {
        this.#pos = m.index + m[0].length;
        return m;
      }
      if (exited) throw new Error(`the CLI exited while waiting for ${what}; screen:\n${text.slice(-3000)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; screen:\n${text.slice(-3000)}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  send(keys: string): void {
    this.child.stdin.write(keys);
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}
