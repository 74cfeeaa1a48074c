// Bundles src/ into dist/ with esbuild. Code splitting keeps heavy modules
// (tables, yaml, prompts, the sandbox) in chunks that load only when a command
// imports them, so `rentctl --version` stays close to bare Node start-up.
import { rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: { main: "src/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.18",
  sourcemap: "linked",
  legalComments: "none",
  minify: true,
  chunkNames: "chunks/[name]-[hash]",
  // Bundled CommonJS dependencies (cli-table3, ...) call require(); give them one.
  banner: {
    js: "import { createRequire as __rentctlCreateRequire } from 'node:module'; const require = __rentctlCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
  metafile: true,
});
// Which source modules each output file holds: the module-load guard test
// (test/e2e/startup.test.ts) maps the files a command loads back to packages.
writeFileSync(new URL("../dist/meta.json", import.meta.url), JSON.stringify(result.metafile));
