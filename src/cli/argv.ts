import { EXTRA_FIELDS } from "../contract/extra-fields.js";
import { VEHICLE_FIELDS } from "../contract/vehicle-fields.js";
/**
 * What argv means before commander reads it. `--json id,price_per_day` (as
 * gh) means `--json --fields id,price_per_day`; plain `--json` stays a
 * switch. The next word is taken as a field list only when it cannot be
 * anything else: `--json=LIST`, or a word holding `,` `_` or `.`, or a
 * contract field name (so `rentctl --json vehicle list` and
 * `vehicle get --json 42` keep their meaning).
 */
export async function normalizeArgv(argv: readonly string[]): Promise<string[]> {
  if (!argv.includes("--json") && !argv.some((a) => a.startsWith("--json="))) return [...argv];
  const fieldNames = new Set(["id", ...VEHICLE_FIELDS.map((f) => f.name), ...EXTRA_FIELDS.map((f) => f.name)]);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (a.startsWith("--json=")) {
      out.push("--json", "--fields", a.slice(7));
      continue;
    }
    const next = argv[i + 1];
    if (
      a === "--json" &&
      next !== undefined &&
      /^[A-Za-z_][\w.]*(,[A-Za-z_][\w.]*)*$/.test(next) &&
      (/[,_.]/.test(next) || fieldNames.has(next))
    ) {
      out.push("--json", "--fields", next);
      i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Whether the output asked for on the command line (or RENTCTL_OUTPUT) is JSON, read without commander. */
export function argvWantsJson(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const i = argv.findIndex((a) => a === "-o" || a === "--output");
  const flag = argv.find((a) => a.startsWith("--output="))?.slice(9) ?? (i >= 0 ? argv[i + 1] : undefined);
  const v = flag ?? (argv.includes("--json") ? "json" : env.RENTCTL_OUTPUT);
  return v === "json" || v === "ndjson";
}
