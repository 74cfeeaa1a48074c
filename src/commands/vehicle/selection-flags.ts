import { flag } from "../flags.js";
import { concurrencyFlag } from "./concurrency.js";

/** `--where` / bulk flags of the verbs that change many vehicles (remove, activate, deactivate, calendar, edit). */
export function selectionFlags(o: { all?: boolean } = {}) {
  return {
    where: flag.list(
      "--where <expr>",
      "select vehicles by FIELD OP VALUE (= != < <= > >= ~regex; repeat: all must hold); matched in the client over every listed page",
    ),
    all: o.all ? flag.bool("--all", "every vehicle of the owner") : undefined,
    concurrency: concurrencyFlag("requests at once (1-16, default 4)"),
    report: flag.string("--report <file>", "write per-vehicle results to FILE (format by extension)"),
    restart: flag.bool("--restart", "ignore the row log of an interrupted run of the same command"),
  };
}

/**
 * Whether a command over ids runs as a bulk job (plan, confirmation, one undo
 * entry, row log): with a selection, or when a flag that only a job honours
 * is given (--report, --concurrency, --restart). Plain ids are changed one by
 * one, each with its own undo entry.
 */
export function wantsJob(o: {
  where: string[];
  all?: boolean;
  report?: string;
  concurrency?: number;
  restart: boolean;
}) {
  return o.where.length > 0 || Boolean(o.all) || o.report !== undefined || o.concurrency !== undefined || o.restart;
}
