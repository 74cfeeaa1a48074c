import type { ChalkInstance } from "chalk";
import { shownAddress } from "../api/address.js";

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
