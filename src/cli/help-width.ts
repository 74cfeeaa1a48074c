/**
 * The width help is laid out for: `COLUMNS`, else the terminal's width when
 * stdout is one, else 80. Free of dependencies: src/boot.ts reads it to
 * decide whether a page rendered at build time (80 columns) is the one
 * commander would print.
 */
export function helpWidth(
  env: NodeJS.ProcessEnv = process.env,
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
): number {
  return Number(env.COLUMNS) || (stdout.isTTY ? stdout.columns : 0) || 80;
}

/** The width of the help pages rendered at build time (dist/help/). */
export const STATIC_HELP_WIDTH = 80;
