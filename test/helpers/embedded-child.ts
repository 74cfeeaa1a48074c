import { startSandbox } from "../../src/sandbox/server.js";

/**
 * A process that runs the embedded sandbox on a data file (as a CLI command
 * does) and stays alive until its stdin ends: prints its address, then
 * answers requests. Bundled and spawned by test/helpers/embedded.ts.
 */

const [dataFile] = process.argv.slice(2);
const compactBytes = process.env.CHILD_COMPACT_BYTES ? Number(process.env.CHILD_COMPACT_BYTES) : undefined;
const sb = await startSandbox({
  host: "127.0.0.1",
  port: 0,
  dataFile,
  embedded: true,
  compactBytes,
  lockTimeoutMs: 10_000,
  onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
  onError: (e) => process.stderr.write(`error: ${String(e)}\n`),
});
process.stdout.write(`${sb.url}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void sb.close().then(() => process.exit(0));
});
