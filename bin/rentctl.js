#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ caches compiled code between runs; Node 20 has no such API.
module.enableCompileCache?.();
const { run } = await import("../dist/main.js");
await run();
