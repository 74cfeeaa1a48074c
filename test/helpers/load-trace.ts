import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// What a run of the built CLI executed, from V8's own coverage
// (NODE_V8_COVERAGE): the scripts it compiled, and in dist/rentctl.cjs the
// source files (mapped through the bundle's source map) of every function
// that ran. A module of the bundle that initialised ran its wrapper function,
// so "ran" is "loaded". Used by test/e2e/startup.test.ts.

export interface LoadTrace {
  /** Scripts outside node's own (paths relative to the checkout). */
  scripts: string[];
  /** Source files of the bundle with code that ran (relative to the checkout). */
  sources: Set<string>;
  /** npm packages among them. */
  packages: Set<string>;
}

interface Coverage {
  result: { url: string; functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
}

/** The prefix src/boot.ts compiles the bundle with (offsets in coverage count it). */
const WRAPPER = "(function (exports, require, module, __filename, __dirname) {";

export function readLoadTrace(coverageDir: string, root: string): LoadTrace {
  const scripts: string[] = [];
  const sources = new Set<string>();
  const bundlePath = join(root, "dist", "rentctl.cjs");
  for (const file of readdirSync(coverageDir)) {
    const cov = JSON.parse(readFileSync(join(coverageDir, file), "utf8")) as Coverage;
    for (const script of cov.result) {
      if (!script.url.startsWith("file:")) continue;
      const path = fileURLToPath(script.url);
      scripts.push(path.startsWith(root) ? path.slice(root.length + 1) : path);
      if (path !== bundlePath) continue;
      const map = bundleMap(root);
      for (const fn of script.functions) {
        const r = fn.ranges[0];
        // (the wrapper itself is the whole bundle: not one module)
        if (!r || r.count === 0 || r.startOffset < WRAPPER.length) continue;
        const src = map.sourceIn(r.startOffset - WRAPPER.length, r.endOffset - WRAPPER.length);
        if (src) sources.add(src);
      }
    }
  }
  const packages = new Set<string>();
  for (const s of sources) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s);
    if (m) packages.add(m[1] as string);
  }
  return { scripts: [...new Set(scripts)].sort(), sources, packages };
}

interface BundleMap {
  /** The source of the first mapped code in [start, end) of the bundle (character offsets). */
  sourceIn(start: number, end: number): string | undefined;
}

let cached: { root: string; map: BundleMap } | undefined;

function bundleMap(root: string): BundleMap {
  if (cached?.root === root) return cached.map;
  const code = readFileSync(join(root, "dist", "rentctl.cjs"), "utf8");
  const raw = JSON.parse(readFileSync(join(root, "dist", "rentctl.cjs.map"), "utf8")) as {
    sources: string[];
    mappings: string;
  };
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
  // Decode the mappings into (generated offset, source index), in order.
  const offsets: number[] = [];
  const srcs: number[] = [];
  let src = 0;
  raw.mappings.split(";").forEach((line, lineNo) => {
    let col = 0;
    if (!line) return;
    for (const seg of line.split(",")) {
      const v = vlq(seg);
      col += v[0] ?? 0;
      if (v.length >= 4) {
        src += v[1] ?? 0;
        offsets.push((lineStarts[lineNo] ?? 0) + col);
        srcs.push(src);
      }
    }
    // the other fields (source line, column, name) are not needed here
  });
  const sources = raw.sources.map((s) => {
    const abs = join(root, "dist", s);
    return abs.startsWith(root) ? abs.slice(root.length + 1) : abs;
  });
  const map: BundleMap = {
    sourceIn(start, end) {
      let lo = 0;
      let hi = offsets.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((offsets[mid] as number) < start) lo = mid + 1;
        else hi = mid;
      }
      return lo < offsets.length && (offsets[lo] as number) < end ? sources[srcs[lo] as number] : undefined;
    },
  };
  cached = { root, map };
  return map;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One source-map segment's fields (base64 VLQ). */
function vlq(seg: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of seg) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}
