import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";
import { helpWidth, STATIC_HELP_WIDTH } from "./cli/help-width.js";
import { helpAsFlag, invokedNoun, invokedVerb } from "./cli/nouns.js";
import { resolvePaths } from "./config/paths.js";

// The start-up path (dist/boot.cjs, required by bin/rentctl.js). Scripts call
// rentctl hundreds of times, so this file decides what each call must load:
//
// - `--help` of any command prints the page rendered at build time
//   (dist/help/, see `helpPages` in src/main.ts) when help would be laid out
//   at that width: no command tree, no commander.
// - Everything else runs the one bundle, dist/rentctl.cjs, compiled from V8's
//   code cache: a file per command (`vehicle.list`; per noun for a noun
//   without verbs) under <data dir>/code-cache/, written after the first run
//   of that command (and again whenever V8 rejects it, e.g. after a Node
//   upgrade). Node 20 has no compile cache of its own for this; it saves the
//   parse and compile of the bundle on every later call. Per command, because
//   a cache holds the functions its first run compiled: one made by
//   `account apply` left `account diff` compiling most of its own (~10 ms a
//   run). At most MAX_CACHE_FILES are kept (~1 MB each), the oldest going.
//   RENTCTL_NO_CODE_CACHE=1 turns it off.
//
// Nothing here may throw for a reason the user can cause: a cache that cannot
// be read or written is simply not used.

/** The bundle's build id, put in its first line by scripts/build.mjs (a hash of its contents). */
const BUILD_ID = /^\/\*rentctl-build:([0-9a-f]{16})\*\//;

export async function boot(distDir: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  if (printStaticHelp(distDir, helpAsFlag(argv), env)) return;
  tuneV8();
  const bundle = loadBundle(distDir, argv, env);
  await bundle.run();
}

/** The file of a command's page under dist/help/, or undefined when argv is no plain `… --help`. */
export function staticHelpFile(distDir: string, argv: readonly string[]): string | undefined {
  const last = argv.at(-1);
  if (last !== "--help" && last !== "-h") return undefined;
  const words = argv.slice(0, -1);
  if (!words.every((w) => /^[a-z][a-z0-9-]*$/.test(w))) return undefined;
  return join(distDir, "help", `${words.length ? words.join(".") : "index"}.txt`);
}

function printStaticHelp(distDir: string, argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const file = staticHelpFile(distDir, argv);
  if (!file || helpWidth(env, process.stdout) !== STATIC_HELP_WIDTH) return false;
  let page: string;
  try {
    page = readFileSync(file, "utf8");
  } catch {
    return false; // not a command (an argument, a typo): the command tree answers
  }
  // A reader that went away (`rentctl --help | head -3`) is no failure.
  process.stdout.on("error", () => process.exit(0));
  process.stdout.write(page);
  return true;
}

/**
 * The one V8 setting of the CLI, set here, in the CLI's entry alone (never by
 * a module the library or the MCP server loads), before the bundle compiles
 * (the code cache records the flags it was made with): undici parses HTTP
 * with llhttp compiled to WebAssembly; the optimising tier-up of that module
 * costs more than it saves and holds up exit: the baseline compiler alone
 * cuts ~100 ms off each API command. Memory is bounded by streaming and by
 * not holding what is done, never by flags or forced collections.
 */
function tuneV8(): void {
  setFlagsFromString("--liftoff-only");
}

interface Bundle {
  run(): Promise<void>;
}

const MAX_CACHE_FILES = 16;

/**
 * The cache file for this bundle, Node and command, or undefined when caching
 * is off. `version` names the bundle: its build id (a hash of its contents,
 * which survives npm's fixed file times) and its modification time (a bundle
 * edited by hand gets a new cache, whatever its length). The command is the
 * noun and its verb when the build has a help page for them (dist/help/,
 * so a mistyped verb or a noun's argument makes no file of its own).
 */
export function codeCacheFile(
  env: NodeJS.ProcessEnv,
  version: string | undefined,
  argv: readonly string[],
  distDir: string,
): string | undefined {
  if (!version || env.RENTCTL_NO_CODE_CACHE === "1") return undefined;
  const noun = invokedNoun(argv);
  const verb = noun ? invokedVerb(argv) : undefined;
  const command =
    verb && /^[a-z][a-z0-9-]*$/.test(verb) && existsSync(join(distDir, "help", `${noun}.${verb}.txt`))
      ? `${noun}.${verb}`
      : (noun ?? "rentctl");
  const dir = join(resolvePaths(env).dataDir, "code-cache");
  return join(dir, `${version}-${process.version}-${process.arch}-${command}.bin`);
}

function loadBundle(distDir: string, argv: readonly string[], env: NodeJS.ProcessEnv): Bundle {
  const filename = join(distDir, "rentctl.cjs");
  const source = readFileSync(filename, "utf8");
  const id = BUILD_ID.exec(source)?.[1];
  const cacheFile = codeCacheFile(
    env,
    id && `${id}.${Math.trunc(statSync(filename).mtimeMs).toString(36)}`,
    argv,
    distDir,
  );
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // first run of this noun (or no data dir yet)
    }
  }
  // The CommonJS wrapper on the bundle's first line keeps its line numbers (and source map) true.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    cachedData,
  });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    // After the command ran: the cache then holds every function it compiled.
    // Not for a process stopped by a signal (Ctrl-C, `kill`): it should just go.
    process.once("exit", (code) => {
      if (code < 128) saveCodeCache(cacheFile, script);
    });
  }
  const module = { exports: {} as Bundle };
  const wrapper = script.runInThisContext() as (...a: unknown[]) => void;
  wrapper(module.exports, createRequire(filename), module, filename, distDir);
  return module.exports;
}

/**
 * Write the cache beside its old versions (removed), through a temp file and
 * a rename; beyond MAX_CACHE_FILES, the oldest files go (a command whose file
 * went makes it again on its next run).
 */
function saveCodeCache(file: string, script: Script): void {
  try {
    const dir = join(file, "..");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const base = file.slice(dir.length + 1);
    const prefix = base.slice(0, base.indexOf("-v")); // the bundle's version
    const kept: Array<{ path: string; mtime: number }> = [];
    for (const old of readdirSync(dir)) {
      // the MCP SDK's cache is its loader's to keep
      if (!old.endsWith(".bin") || old.startsWith("mcp-sdk-")) continue;
      const path = join(dir, old);
      // other builds or Node versions: never read again
      if (!old.startsWith(`${prefix}-${process.version}-`)) rmSync(path, { force: true });
      else if (old !== base) kept.push({ path, mtime: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 });
    }
    kept.sort((a, b) => b.mtime - a.mtime);
    for (const old of kept.slice(MAX_CACHE_FILES - 1)) rmSync(old.path, { force: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // a read-only or full data dir: run without a cache
  }
}
