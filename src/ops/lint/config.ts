import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../../base/errors.js";
import { nearest } from "../../base/nearest.js";
import { parseYaml } from "../../files/yaml.js";
import { defaultSettings, RULE_BY_ID, RULE_IDS, type RuleSetting, SEVERITIES, type Severity } from "./rules.js";

/**
 * `.rentctl-lint.yaml`: which rules run, at which severity, with which
 * thresholds. Found upward from the current directory (as .editorconfig or
 * .eslintrc are), or named with `--config`. An unknown rule id, option or key
 * is an error (exit 2) with the nearest known name.
 *
 * ```yaml
 * rules:
 *   no-images: off                # a rule turned off
 *   price-rises: error            # a rule re-rated
 *   short-description:            # severity and thresholds
 *     severity: warning
 *     min_length: 120
 * ```
 */

export const CONFIG_FILE = ".rentctl-lint.yaml";

export interface LintConfig {
  /** Where it was read from (undefined: the defaults). */
  path?: string;
  rules: ReadonlyMap<string, RuleSetting>;
}

/** The nearest `.rentctl-lint.yaml` from `dir` up to the root, or undefined. */
export async function findConfig(dir: string): Promise<string | undefined> {
  for (let d = resolve(dir); ; ) {
    const p = join(d, CONFIG_FILE);
    if ((await stat(p).catch(() => undefined))?.isFile()) return p;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function unknownName(where: string, what: string, name: string, known: readonly string[]): ConfigError {
  const near = nearest(name, known);
  return new ConfigError(
    `${where}: unknown ${what} ${JSON.stringify(name)}${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
    { hint: `known: ${known.join(", ")}` },
  );
}

/** Read a lint configuration document (already parsed); every mistake is a ConfigError naming the file. */
export function configFrom(doc: unknown, where: string): LintConfig {
  const rules = defaultSettings();
  if (doc === null || doc === undefined) return { path: where, rules };
  if (!isObject(doc)) throw new ConfigError(`${where}: expected a mapping with \`rules:\``);
  for (const key of Object.keys(doc)) if (key !== "rules") throw unknownName(where, "key", key, ["rules"]);
  const given = doc.rules ?? {};
  if (!isObject(given)) throw new ConfigError(`${where}: \`rules:\` must map rule ids to a setting`);
  for (const [id, value] of Object.entries(given)) {
    const info = RULE_BY_ID.get(id);
    if (!info) throw unknownName(where, "rule", id, RULE_IDS);
    const setting = { ...rules.get(id)!, options: { ...rules.get(id)!.options } };
    const at = `${where}: rules.${id}`;
    const level = (v: unknown) => {
      if (v === "off" || v === false) setting.enabled = false;
      else if (v === "on" || v === true) setting.enabled = true;
      else if (typeof v === "string" && (SEVERITIES as readonly string[]).includes(v)) {
        setting.enabled = true;
        setting.severity = v as Severity;
      } else throw new ConfigError(`${at}: expected off, on, ${SEVERITIES.join(", ")}, got ${JSON.stringify(v)}`);
    };
    if (isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k === "severity") level(v);
        else if (info.options && k in info.options) {
          if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
            throw new ConfigError(`${at}.${k}: expected a whole number of at least 0, got ${JSON.stringify(v)}`);
          setting.options[k] = v;
        } else throw unknownName(at, "setting", k, ["severity", ...Object.keys(info.options ?? {})]);
      }
    } else level(value);
    rules.set(id, setting);
  }
  return { path: where, rules };
}

/** The configuration: `--config FILE`, else the nearest `.rentctl-lint.yaml` from `cwd` up, else the defaults. */
export async function loadConfig(opts: { file?: string; cwd?: string }): Promise<LintConfig> {
  const path = opts.file ?? (opts.cwd !== undefined ? await findConfig(opts.cwd) : undefined);
  if (path === undefined) return { rules: defaultSettings() };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new ConfigError(`--config ${path}: ${err.code === "ENOENT" ? "no such file" : err.message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`${path}: not valid yaml: ${(e as Error).message}`);
  }
  return configFrom(doc, path);
}
