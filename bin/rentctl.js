#!/usr/bin/env node
import module from "node:module";
import v8 from "node:v8";

// undici parses HTTP with llhttp compiled to WebAssembly. For a short-lived CLI
// the optimising tier-up of that module costs more than it saves (and holds up
// exit while it runs): the baseline compiler alone cuts ~100 ms off each API
// command. See bench/startup.mjs.
v8.setFlagsFromString("--liftoff-only");
// Node 22.1+ caches compiled code between runs; Node 20 has no such API.
module.enableCompileCache?.();
const { run } = await import("../dist/main.js");
await run();
