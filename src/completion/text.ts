/** The hidden subcommand the scripts call for dynamic values: `rentctl completion __complete KIND [ARGS…]`. */
export const COMPLETE_COMMAND = "completion __complete";

/** The comment lines heading every generated script. */
export function header(program: string, shell: string): string[] {
  return [
    `Generated from the command tree by \`${program} completion ${shell}\`; do not edit.`,
    "Regenerate the checked-in copies with `npm run build && node scripts/gen-completions.mjs`.",
  ];
}

/** A shell function's name made from the program's: `rentctl` → `_rentctl` (`prefix` is the shell's habit). */
export function functionName(program: string, prefix: string): string {
  return `${prefix}${program.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/** A script written a line at a time: `line()` adds one (none: an empty line), `text()` is the script. */
export function scriptLines(): { line: (s?: string) => void; text: () => string } {
  const out: string[] = [];
  return {
    line: (s = "") => {
      out.push(s);
    },
    text: () => `${out.join("\n")}\n`,
  };
}
