/**
 * The width result tables and cards are fitted to: the terminal's when stdout
 * is one, else `COLUMNS` when set; with neither (stdout read by another
 * program: a pipe, a file) no width at all, so every value stays whole
 * (`vehicle list | grep Hybrid` finds it), as gh and kubectl do. Free of
 * dependencies: deps reads it on every run.
 */
export function resultWidth(io: { stdoutTTY: boolean; columns?: number }, env: NodeJS.ProcessEnv = {}): number {
  if (io.stdoutTTY && io.columns && io.columns > 0) return io.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : Number.POSITIVE_INFINITY;
}

/** A width that must be a number (a board of days, the wizard's review): resultWidth, else 80. */
export function terminalWidth(io: { stdoutTTY: boolean; columns?: number }, env: NodeJS.ProcessEnv = {}): number {
  const w = resultWidth(io, env);
  return Number.isFinite(w) ? w : 80;
}
