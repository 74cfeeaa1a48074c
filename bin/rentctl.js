#!/usr/bin/env node
"use strict";
// CommonJS (see bin/package.json): Node starts it without its ES-module loader.
// Scripts ask for the version often: answer before loading anything else.
// Kept in step with package.json and src/version.ts (a test checks).
const VERSION = "0.1.0";
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const dist = require("node:path").join(__dirname, "..", "dist");
  require("../dist/boot.cjs").boot(dist, argv);
}
