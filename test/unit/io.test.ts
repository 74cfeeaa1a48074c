import { afterEach, describe, expect, it } from "vitest";
import { processIO } from "../../src/base/io.js";
import { inquirerPrompter } from "../../src/prompt.js";

// process.stdin costs ~7 ms to make (a stream; for a pipe, a socket): a command that never reads it or
// asks a question must not make it.
describe("the process's streams", () => {
  const original = Object.getOwnPropertyDescriptor(process, "stdin") as PropertyDescriptor;
  afterEach(() => {
    Object.defineProperty(process, "stdin", original);
  });

  it("make stdin only when it is read or its TTY flag is asked", () => {
    let made = 0;
    Object.defineProperty(process, "stdin", {
      configurable: true,
      enumerable: true,
      get() {
        made++;
        return original.get?.call(process);
      },
    });
    const io = processIO();
    inquirerPrompter(io);
    expect(made).toBe(0);
    expect(typeof io.stdinTTY).toBe("boolean");
    expect(made).toBe(1);
    expect(io.stdin).toBe(process.stdin);
  });
});
