import { Chalk, type ChalkInstance } from "chalk";

/**
 * Colour decision in one place: off with --no-color or NO_COLOR (any value),
 * forced on by FORCE_COLOR (unless it is 0), else on only for a TTY.
 */
export function colorEnabled(flagColor: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flagColor === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY;
}

export function makeChalk(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}
