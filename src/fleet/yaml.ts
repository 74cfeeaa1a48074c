/**
 * The yaml library, loaded lazily. In the esbuild bundle it arrives as a
 * CommonJS module (only `default`), under vitest as ESM: accept both.
 */
type YamlLib = typeof import("yaml");

export async function yamlLib(): Promise<YamlLib> {
  const mod = (await import("yaml")) as YamlLib & { default?: YamlLib };
  return typeof mod.stringify === "function" ? mod : (mod.default as YamlLib);
}
