import { UsageError } from "../../base/errors.js";
import {
  PROFILE_KEYS,
  type Profile,
  parseEnvironment,
  parseFormat,
  parsePositiveInt,
  validateUrl,
} from "../../config/settings.js";
import type { Deps } from "../../deps.js";
import { arg } from "../flags.js";
import { defineVerb } from "../verb.js";

export const verb = defineVerb({
  name: "set",
  description: "Set a value in the current (or --profile) profile",
  args: { key: arg.required("env | base-url | user | locale | output | timeout"), value: arg.required() },
  examples: ["rentctl profile set base-url https://test.example", "rentctl -p staging profile set user 1002"],
  run: (deps, args) => set(deps, args.key, args.value),
});

export async function set(deps: Deps, key: string, value: string): Promise<void> {
  const store = deps.store();
  const name = deps.flags.profile ?? store.current ?? "default";
  const patch: Partial<Profile> = {};
  switch (key) {
    case "env":
      patch.env = parseEnvironment(value, "env");
      break;
    case "base-url":
      validateUrl(value);
      patch.baseUrl = value;
      break;
    case "user":
      patch.userId = parsePositiveInt(value, "user");
      break;
    case "locale":
      patch.locale = /^\d+$/.test(value) ? Number(value) : value;
      break;
    case "output":
      patch.output = parseFormat(value, "output");
      break;
    case "timeout": {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0)
        throw new UsageError(`timeout: expected seconds above 0, got ${JSON.stringify(value)}`);
      patch.timeout = n;
      break;
    }
    case "api-key":
      throw new UsageError("the API key is not taken on the command line", {
        hint: "use `rentctl auth login` (hidden prompt) or `--with-token` from stdin",
      });
    default:
      throw new UsageError(`unknown profile key ${JSON.stringify(key)}`, {
        hint: `keys: ${PROFILE_KEYS.filter((k) => k !== "api-key").join(", ")}`,
      });
  }
  await store.write((d) => {
    d.profiles[name] = { ...(d.profiles[name] ?? {}), ...patch };
    d.current ??= name;
  });
  deps.msg.success(`profile ${name}: ${key} = ${value}`);
}
