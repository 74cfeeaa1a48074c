// Bundles src/ into dist/ with esbuild. Code splitting keeps heavy modules
// (tables, yaml, prompts, the sandbox) in chunks that load only when a command
// imports them, so `rentctl --version` stays close to bare Node start-up.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
// src/ imports { Agent, request, FormData } from "undici". The package index
// loads all of undici (fetch, WebSocket, caches, mocks: ~0.5 MB of code to
// parse on every API call); this module gives the same three names from the
// files that implement them. FormData is the global one (Node's built-in
// undici class, the one fetch uses): undici sends any FormData-like body.
const undiciParts = {
  name: "undici-parts",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: "undici", namespace: "undici-parts" }));
    b.onLoad({ filter: /.*/, namespace: "undici-parts" }, () => ({
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "js",
      contents: `
import Agent from "undici/lib/dispatcher/agent.js";
import apiRequest from "undici/lib/api/api-request.js";
export { Agent };
export const FormData = globalThis.FormData;
/** undici's request(url, opts) for an explicit opts.dispatcher (what src/api/client.ts passes). */
export function request(url, opts = {}) {
  const u = typeof url === "string" ? new URL(url) : url;
  const { dispatcher, ...rest } = opts;
  if (!dispatcher) throw new TypeError("rentctl's undici request needs opts.dispatcher");
  return apiRequest.call(dispatcher, { ...rest, origin: u.origin, path: u.pathname + u.search, method: rest.method || (rest.body ? "PUT" : "GET") });
}`,
    }));
  },
};

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
  plugins: [undiciParts],
});
// Which sources each chunk holds, for the module-load guard (test/e2e/startup.test.ts). Not shipped.
mkdirSync(new URL("../.build", import.meta.url), { recursive: true });
writeFileSync(new URL("../.build/metafile.json", import.meta.url), JSON.stringify(result.metafile));
