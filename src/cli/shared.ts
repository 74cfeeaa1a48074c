import type { EventEmitter } from "node:events";
import type { Command, Help } from "commander";
import type { GlobalFlags } from "../config/settings.js";
import type { Deps } from "../deps.js";
import { helpWidth } from "./help-width.js";

/** What the program builder needs from main: a way to build a command's deps. */
export interface CliContext {
  makeDeps(flags: GlobalFlags): Promise<Deps>;
}

/** Repeatable option collector. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
/** Completion reads this mark to know the flag may be repeated (see completion/model.ts). */
collect.repeatable = true;

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${wrapShell(l, 76)}`).join("\n")}\n`;
}

/** Break a long example command at spaces with shell line continuations, so help fits 80 columns. */
function wrapShell(line: string, width: number): string {
  if (line.length <= width) return line;
  // A trailing comment stays whole on the last line: a `\` inside a comment continues nothing,
  // and the comment's next words would run as a command.
  const hash = line.search(/\s+# /);
  const comment = hash >= 0 ? line.slice(hash) : "";
  const command = hash >= 0 ? line.slice(0, hash) : line;
  const out: string[] = [];
  let cur = "";
  for (const word of command.split(" ")) {
    if (cur && cur.length + 1 + word.length > width - 2) {
      out.push(`${cur} \\`);
      cur = `      ${word}`;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  out.push(`${cur}${comment}`);
  return out.join("\n");
}

/**
 * The help every command shares (applied by the program to the whole tree):
 * the global flags a command inherits under INHERITED FLAGS (as gh does), and
 * items whose flag column is too wide for the terminal printed with the
 * description on the next line, so help fits 80 columns.
 */
export function applyHelpConfig(cmd: Command): void {
  cmd.configureHelp({
    showGlobalOptions: true,
    helpWidth: helpWidth(),
    styleTitle: (title: string) => (title === "Global Options:" ? "INHERITED FLAGS:" : title),
    // A sub-command's own flags in full; the inherited ones in a compact block (their help is on `rentctl --help`).
    formatHelp(c: Command, helper: Help): string {
      const base = Object.getPrototypeOf(helper).formatHelp as Help["formatHelp"];
      if (!c.parent) return base.call(helper, c, helper);
      const inherited = helper.visibleGlobalOptions(c).map((o) => helper.optionTerm(o));
      const h = helper as Help & { showGlobalOptions: boolean };
      h.showGlobalOptions = false;
      let text: string;
      try {
        text = base.call(helper, c, helper);
      } finally {
        h.showGlobalOptions = true;
      }
      return inherited.length ? `${text}${compactBlock(inherited, helper.helpWidth ?? 80)}` : text;
    },
    formatItem(term: string, termWidth: number, description: string, helper: Help): string {
      const helpWidth = helper.helpWidth ?? 80;
      const indent = "  ";
      if (!description) return `${indent}${term}`;
      const room = helpWidth - Math.max(termWidth, term.length) - 4;
      if (room >= 30 && term.length <= termWidth) {
        const lines = helper.boxWrap(description, room).split("\n");
        const pad = " ".repeat(termWidth + 2 + indent.length);
        return `${indent}${term.padEnd(termWidth)}  ${lines.join(`\n${pad}`)}`;
      }
      // Too wide: the flag on its own line, the description wrapped beneath it.
      const deep = "      ";
      const wrapped = helper.boxWrap(description, helpWidth - deep.length).split("\n");
      return `${indent}${term}\n${wrapped.map((l) => deep + l).join("\n")}`;
    },
  });
}

/** Inherited flags as a few lines of terms (`-q, --quiet  --dry-run  …`), their descriptions left to root help. */
function compactBlock(terms: string[], width: number): string {
  const lines: string[] = [];
  let cur = "";
  for (const t of terms) {
    if (cur && 2 + cur.length + 2 + t.length > width) {
      lines.push(cur);
      cur = t;
    } else cur = cur ? `${cur}  ${t}` : t;
  }
  if (cur) lines.push(cur);
  return `\nINHERITED FLAGS (described in rentctl --help):\n${lines.map((l) => `  ${l}`).join("\n")}\n`;
}

/** Whether a command's help already has an examples block (added with addHelpText("after", examples(…))). */
export function hasExamples(cmd: Command): boolean {
  return (cmd as unknown as EventEmitter).listeners("afterHelp").length > 0;
}
