/**
 * The one way rentctl loads the `yaml` package. Bundled by esbuild, the
 * package (CommonJS under Node) arrives as a module whose functions sit on
 * `default` only, so `const { stringify } = await import("yaml")` is undefined
 * in dist/ while it works from the sources. Every yaml reader and writer goes
 * through here; the end-to-end tests exercise it through the built CLI.
 */
import { parseYamlBlock } from "./yaml-block.js";

type YamlModule = typeof import("yaml");

let loaded: Promise<YamlModule> | undefined;

export function loadYaml(): Promise<YamlModule> {
  loaded ??= import("yaml").then((m) => {
    const mod = m as YamlModule & { default?: YamlModule };
    return typeof mod.stringify === "function" ? mod : (mod.default as YamlModule);
  });
  return loaded;
}

/**
 * Read a yaml document a user gave: errors are thrown (duplicate keys
 * included), warnings (an unknown `%` directive) are not printed by Node as
 * process warnings: stderr stays rentctl's. The block subset rentctl's own
 * exports write is read without the yaml package (parseYamlBlock: the same
 * values, many times faster); the package is loaded for anything else.
 */
export async function parseYaml(text: string): Promise<unknown> {
  const fast = parseYamlBlock(text);
  if (fast) return fast.value;
  const { parse } = await loadYaml();
  return parse(text, { logLevel: "error" });
}
