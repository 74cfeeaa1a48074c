import type { IO } from "./base/io.js";

/** Confirmations and secrets asked on the terminal (stderr), loaded only when asked. Tests pass fakes. */
export interface Prompter {
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  password(message: string): Promise<string>;
}

export function inquirerPrompter(io: IO): Prompter {
  // stdin is taken when a question is asked, not before (most commands ask none)
  const ctx = {
    get input() {
      return io.stdin as NodeJS.ReadableStream;
    },
    output: io.stderr as NodeJS.WritableStream,
  };
  return {
    async confirm(message, defaultValue = false) {
      const { confirm } = await import("@inquirer/prompts");
      return confirm({ message, default: defaultValue }, ctx as never);
    },
    async password(message) {
      const { password } = await import("@inquirer/prompts");
      return password({ message, mask: "*" }, ctx as never);
    },
  };
}
