#!/usr/bin/env node
// Scripts ask for the version often: answer before loading anything else.
// Kept in step with package.json and src/version.ts (a test checks).
const VERSION = "0.1.0";
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const [{ default: module }, { default: v8 }] = await Promise.all([import("node:module"), import("node:v8")]);
  // undici parses HTTP with llhttp compiled to WebAssembly. For a short-lived CLI
  // the optimising tier-up of that module costs more than it saves (and holds up
  // exit while it runs): the baseline compiler alone cuts ~100 ms off each API
  // command. See bench/startup.mjs.
  v8.setFlagsFromString("--liftoff-only");
  // Node 22.1+ caches compiled code between runs; Node 20 has no such API.
  module.enableCompileCache?.();
  const { run } = await import("../dist/main.js");
  await run();
}
