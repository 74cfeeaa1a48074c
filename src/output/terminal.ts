/**
 * The width stdout's tables fit: the terminal's when stdout is one, else
 * `COLUMNS`, else 80. Free of dependencies: deps reads it on every run.
 */
export function terminalWidth(io: { stdoutTTY: boolean; columns?: number }, env: NodeJS.ProcessEnv = {}): number {
  if (io.stdoutTTY && io.columns && io.columns > 0) return io.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}
