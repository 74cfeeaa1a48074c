import type { ChalkInstance } from "chalk";
import type { RentctlError } from "../base/errors.js";

/**
 * The text of an expected failure, as every command shows it on stderr: one
 * `error:` line, the details (by field), and the hint. main.ts prints it on
 * exit; the wizard prints it when a create is refused and it goes back to
 * the review.
 */
export function formatError(err: RentctlError, c: ChalkInstance): string {
  let out = `${c.red("error:")} ${err.message}\n`;
  for (const d of err.details) out += `  ${d.field ? `${c.bold(d.field)}: ` : "- "}${d.message}\n`;
  if (err.hint) out += `${c.dim(`hint: ${err.hint}`)}\n`;
  return out;
}
