import { ENVIRONMENTS, FORMATS, type GlobalFlags, REVIEW_FORMATS } from "../config/settings.js";
import { flag, type ParsedValues, readFlags } from "./flags.js";

/**
 * The program's own flags, which every command inherits (help lists them
 * under INHERITED FLAGS): declared once, added to the program by
 * src/cli/program.ts and read back for `Deps` by every verb.
 */
export const GLOBAL_FLAGS = {
  profile: flag.string("-p, --profile <name>", "profile to use (env RENTCTL_PROFILE)"),
  env: flag.choice("--env <env>", "environment (env RENTCTL_ENV)", ENVIRONMENTS),
  baseUrl: flag.string("--base-url <url>", "base address, overriding the profile's (env RENTCTL_BASE_URL)"),
  user: flag.string("--user <id>", "owner id (env RENTCTL_USER_ID)"),
  locale: flag.string("--locale <id|name>", "response language, id or name (env RENTCTL_LOCALE; default 40 = English)"),
  output: flag.choice(
    "-o, --output <format>",
    "output format (env RENTCTL_OUTPUT; default table; markdown: diff and lint only; sarif: lint only)",
    [...FORMATS, ...REVIEW_FORMATS],
    { unlisted: REVIEW_FORMATS },
  ),
  json: flag.bool("--json", "same as --output json"),
  timeout: flag.string("--timeout <seconds>", "bound on each HTTP attempt (env RENTCTL_TIMEOUT; default 30)"),
  color: flag.bool("--no-color", "no colour (also NO_COLOR)"),
  quiet: flag.bool("-q, --quiet", "print only identifiers of affected resources, one per line"),
  verbose: flag.bool("-v, --verbose", "HTTP trace on stderr (the key is always redacted)"),
  yes: flag.bool("-y, --yes", "do not ask for confirmation"),
  dryRun: flag.bool("--dry-run", "show the request(s) a mutating command would send; send nothing"),
  fields: flag.string("--fields <list>", "comma-separated columns / keys to show"),
  raw: flag.bool("--raw", "print response bodies as received, meta included"),
  settle: flag.number(
    "--settle <seconds>",
    "a rerun of an interrupted bulk job waits this long (when longer than --timeout) for the requests the stopped run left in flight before it looks",
    { min: 0, max: 3600 },
  ),
  wait: flag.bool(
    "--no-wait",
    "when another rentctl on this machine runs the same bulk job (import, apply, a change to many vehicles, an undo), exit 9 at once instead of waiting for it",
  ),
};

/** The global flags of a run, from commander's values with the program's (`optsWithGlobals()`). */
export function readGlobalFlags(values: ParsedValues): GlobalFlags {
  return readFlags(GLOBAL_FLAGS, values);
}
