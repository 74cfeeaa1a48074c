import type { ChalkInstance } from "chalk";
import { shownAddress } from "../api/address.js";
import type { Messages } from "../base/io.js";

export type { ActingTarget, Messages } from "../base/io.js";

/** Messages written to `stderr`, coloured by the stderr colour decision. */
export function createMessages(stderr: NodeJS.WritableStream, c: ChalkInstance, quiet: boolean): Messages {
  const err = (s: string) => stderr.write(`${s}\n`);
  return {
    info: (t) => {
      if (!quiet) err(t);
    },
    warn: (t) => err(`${c.yellow("warning:")} ${t}`),
    success: (t) => {
      if (!quiet) err(`${c.green("✓")} ${t}`);
    },
    acting: (target, what) => {
      if (quiet) return;
      const env = target.env === "production" ? c.red.bold("production") : c.cyan(target.env);
      const owner = target.userId !== undefined ? ` as owner ${target.userId}` : "";
      const profile = target.profileName ? ` (profile ${target.profileName})` : "";
      err(`${what} on ${env}${owner}${profile} · ${shownAddress(target)}`);
    },
  };
}
