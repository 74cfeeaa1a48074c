import { flag } from "../flags.js";

/** `--where` / bulk flags of the verbs that change many vehicles (remove, activate, deactivate, calendar, edit). */
export function selectionFlags(o: { all?: boolean } = {}) {
  return {
    where: flag.list(
      "--where <expr>",
      "select vehicles by FIELD OP VALUE (= != < <= > >= ~regex; repeat: all must hold); matched in the client over every listed page",
    ),
    all: o.all ? flag.bool("--all", "every vehicle of the owner") : undefined,
    concurrency: flag.string("--concurrency <n>", "requests at once (1-16, default 4)"),
    report: flag.string("--report <file>", "write per-vehicle results to FILE (format by extension)"),
    restart: flag.bool("--restart", "ignore the row log of an interrupted run of the same command"),
  };
}
