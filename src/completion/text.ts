/** The hidden subcommand the scripts call for dynamic values: `rentctl completion __complete KIND [ARGS…]`. */
export const COMPLETE_COMMAND = "completion __complete";

/** The comment lines heading every generated script. */
export function header(program: string, shell: string): string[] {
  return [
    `Generated from the command tree by \`${program} completion ${shell}\`; do not edit.`,
    "Regenerate the checked-in copies with `npm run build && node scripts/gen-completions.mjs`.",
  ];
}
