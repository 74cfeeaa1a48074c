// Bundles src/ into dist/ with esbuild, for the start-up path of src/boot.ts:
//   dist/boot.cjs     the little that every call loads (static help, the code cache)
//   dist/rentctl.cjs  everything else, one CommonJS file, compiled through V8's
//                     code cache; each module in it initialises only when first
//                     imported, so a command runs just the code it uses
//   dist/help/*.txt   every command's --help page, rendered at 80 columns
// One file instead of ES-module chunks: Node 20 resolves, reads and compiles
// each ES module on its own (~40 ms for the ~35 an API call needs) and has
// no compile cache for them. bench/startup.mjs measures the difference.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
// src/ imports { Pool } from "undici" (and dispatches on it with its own
// handler: src/api/client.ts). The package index loads all of undici (fetch,
// WebSocket, caches, mocks: ~0.5 MB of code to parse on every API call); this
// module gives the one class from the file that implements it. (Multipart
// bodies use Node's global FormData, read only where an upload is built: see
// src/api/encode.ts.)
const undiciParts = {
  name: "undici-parts",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: "undici", namespace: "undici-parts" }));
    b.onLoad({ filter: /.*/, namespace: "undici-parts" }, () => ({
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "js",
      contents: `export { default as Pool } from "undici/lib/dispatcher/pool.js";`,
    }));
  },
};

// Two modules our dependencies require at load time but we never use on a
// normal run: undici's HTTP/2 client (node:http2 pulls in tls and crypto,
// ~5 ms) and commander's executable subcommands (node:child_process, dgram).
// Each is replaced by a stand-in that loads the real thing on first use.
const lazyDeps = {
  name: "lazy-deps",
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, "client-h2.js"), namespace: "lazy-h2" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-h2" }, (args) => ({
      resolveDir: dirname(args.path),
      loader: "js",
      contents: `module.exports = function connectH2(...a) { return require(${JSON.stringify(args.path)})(...a); };`,
    }));
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /commander/.test(args.importer) ? { path: "child_process", namespace: "lazy-child-process" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-child-process" }, () => ({
      loader: "js",
      contents: `module.exports = new Proxy({}, { get: (_, k) => require("node:child_process")[k] });`,
    }));
  },
};

// src/mcp/server.ts imports ./sdk.js: in the bundle, a require of dist/mcp-sdk.cjs (built below).
// It is compiled through a V8 code cache of its own in the data dir (as src/boot.ts does for the
// bundle): the SDK's ~240 KB cost ~110 ms to compile and run each start, ~70 ms from the cache.
const mcpSdkApart = {
  name: "mcp-sdk-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      /src[\\/]mcp$/.test(args.resolveDir) ? { path: "mcp-sdk", namespace: "mcp-sdk-apart" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "mcp-sdk-apart" }, () => ({
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "js",
      contents: `
const fs = require("node:fs");
const { join } = require("node:path");
const { Script } = require("node:vm");
const { createRequire } = require("node:module");
const { resolvePaths } = require("./src/config/paths.ts");
const file = join(__dirname, "mcp-sdk.cjs");
const source = fs.readFileSync(file, "utf8");
const id = require("node:crypto").createHash("sha256").update(source).digest("hex").slice(0, 16);
const cacheFile = process.env.RENTCTL_NO_CODE_CACHE === "1" ? undefined
  : join(resolvePaths(process.env).dataDir, "code-cache", "mcp-sdk-" + id + "-" + process.version + "-" + process.arch + ".bin");
let cachedData;
try { if (cacheFile) cachedData = fs.readFileSync(cacheFile); } catch {}
const script = new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename: file, cachedData });
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(file), mod, file, __dirname);
if (cacheFile && (!cachedData || script.cachedDataRejected)) {
  try {
    fs.mkdirSync(join(cacheFile, ".."), { recursive: true, mode: 0o700 });
    const tmp = cacheFile + "." + process.pid + ".tmp";
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
    const dir = join(cacheFile, "..");
    for (const old of fs.readdirSync(dir))
      if (old.startsWith("mcp-sdk-") && join(dir, old) !== cacheFile) fs.rmSync(join(dir, old), { force: true });
  } catch {}
}
module.exports = mod.exports;
`,
    }));
  },
};

// Replaced with a hash of the bundle once written: src/boot.ts keys the code cache by it.
const BUILD_ID_MARK = "/*rentctl-build:0000000000000000*/";
const common = {
  bundle: true,
  // a native binding (prebuilt .node files per platform): loaded from node_modules, on first use only
  external: ["@napi-rs/keyring"],
  format: "cjs",
  platform: "node",
  target: "node20.18",
  legalComments: "none",
  minify: true,
  logLevel: "warning",
  // import("node:fs") becomes require("node:fs"): the bundle runs as a vm.Script
  // (src/boot.ts), which has no loader for real dynamic imports on Node 20.
  supported: { "dynamic-import": false },
  // jsonc-parser's main is a UMD file whose requires esbuild cannot follow: its ES module build instead
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
};
const result = await build({
  ...common,
  entryPoints: { rentctl: "src/main.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  sourcemap: "linked",
  banner: { js: BUILD_ID_MARK },
  metafile: true,
  plugins: [undiciParts, lazyDeps, mcpSdkApart],
});
// The MCP SDK (`rentctl mcp` only, with zod): a file of its own beside the bundle, never on another command's path.
await build({
  ...common,
  entryPoints: { "mcp-sdk": "src/mcp/sdk.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
});
await build({ ...common, entryPoints: { boot: "src/boot.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" } });
const bundleFile = fileURLToPath(new URL("../dist/rentctl.cjs", import.meta.url));
const bundle = readFileSync(bundleFile, "utf8");
if (/[^\w.$]import\(/.test(bundle))
  throw new Error("dist/rentctl.cjs holds a dynamic import(), which a vm.Script cannot run");
if (!bundle.startsWith(BUILD_ID_MARK)) throw new Error("dist/rentctl.cjs does not start with the build id mark");
const id = createHash("sha256").update(bundle).digest("hex").slice(0, 16);
writeFileSync(bundleFile, bundle.replace(BUILD_ID_MARK, `/*rentctl-build:${id}*/`));

// Every command's help page, from the bundle itself (the text `--help` prints at 80 columns).
const { helpPages } = createRequire(import.meta.url)(bundleFile);
const helpDir = fileURLToPath(new URL("../dist/help/", import.meta.url));
mkdirSync(helpDir, { recursive: true });
for (const [path, text] of await helpPages()) writeFileSync(join(helpDir, `${path || "index"}.txt`), text);

// Which sources the bundle holds, for the module-load guard (test/e2e/startup.test.ts). Not shipped.
mkdirSync(new URL("../.build", import.meta.url), { recursive: true });
writeFileSync(new URL("../.build/metafile.json", import.meta.url), JSON.stringify(result.metafile));

// The library entries (package.json `exports`): ES modules for `import … from "rentctl/sandbox"`,
// with their types emitted by tsc (tsconfig.lib.json) beside them. Not on the CLI's start-up path.
await build({
  ...common,
  format: "esm",
  supported: {},
  entryPoints: { index: "src/library/index.ts", sandbox: "src/library/sandbox.ts" },
  // Loaded by the CLI only: left out of the library so that importing it never loads them (test/library/client.test.ts checks).
  external: [...common.external, "commander", "chalk", "@inquirer/prompts", "cli-table3", "cli-progress", "conf"],
  outdir: "dist/lib",
  outExtension: { ".js": ".js" },
  // a module the library loads on first use (import()) is a chunk of its own, with its own imports
  splitting: true,
  // error classes keep their names (err.name === "StalePlanError") for the library's callers
  keepNames: true,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [undiciParts],
  // CommonJS dependencies bundled into an ES module may call require(): give them one.
  banner: {
    js: 'import { createRequire as __rentctlRequire } from "node:module"; const require = __rentctlRequire(import.meta.url);',
  },
});
// Their types: one bundled .d.ts per entry beside it (scripts/dts.config.cjs). A dev tool: an install
// from the registry ships them built, and a production install without dev tools skips this step.
{
  const { execFileSync } = await import("node:child_process");
  let generator;
  try {
    generator = createRequire(import.meta.url).resolve("dts-bundle-generator/dist/bin/dts-bundle-generator.js");
  } catch {
    console.warn("dts-bundle-generator is not installed: dist/lib has no .d.ts types");
  }
  if (generator)
    execFileSync(process.execPath, [generator, "--config", "scripts/dts.config.cjs", "--silent"], { stdio: "inherit" });
}
