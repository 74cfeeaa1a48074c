import { rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { TerminatedError, UsageError } from "../../base/errors.js";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { startSandbox } from "../../sandbox/server.js";
import { type FlagValues, flag } from "../flags.js";
import { defineVerb } from "../verb.js";
import { dataFileOf, dataFlag, expectedSandboxError, stateFile } from "./data.js";

/** `rentctl sandbox serve`: run the sandbox as an HTTP server until Ctrl-C or SIGTERM. */

const rate = (flags: string, description: string) => flag.number(flags, description, { min: 0, max: 1 });

const FLAGS = {
  host: flag.string("--host <host>", "address to listen on", { default: "127.0.0.1" }),
  port: flag.number("--port <port>", "port (0 = any free port)", { min: 0, max: 65535, default: "4010" }),
  data: dataFlag,
  memory: flag.bool("--memory", "keep state in memory only"),
  latency: flag.number("--latency <ms>", "delay every answer by MS milliseconds", { min: 0 }),
  failRate: rate("--fail-rate <r>", "answer this share of requests (0-1) with a 5xx JSON error"),
  html502Rate: rate("--html502-rate <r>", "answer this share with a 502 HTML page"),
  resetRate: rate("--reset-rate <r>", "drop this share of connections without an answer"),
  throttleRate: rate("--throttle-rate <r>", "answer this share with 429 and Retry-After"),
  retryAfter: flag.number("--retry-after <s>", "Retry-After seconds for 429", { min: 0, default: "1" }),
  faultFirst: flag.number("--fault-first <n>", "apply the fault switches to the first N requests only", { min: 0 }),
};

export const verb = defineVerb({
  name: "serve",
  description: "Run the sandbox as an HTTP server until Ctrl-C",
  flags: FLAGS,
  examples: [
    "rentctl sandbox serve",
    "rentctl sandbox serve --port 0 --memory",
    "rentctl sandbox serve --latency 200 --fail-rate 0.1",
    "RENTCTL_ENV=sandbox RENTCTL_BASE_URL=http://127.0.0.1:4010 rentctl vehicle list",
  ],
  run: (deps, _args, opts) => serve(deps, opts),
});

type ServeOptions = FlagValues<typeof FLAGS>;

function envBytes(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name}: expected a whole number of bytes, got ${JSON.stringify(v)}`);
  return n;
}

export async function serve(deps: Deps, opts: ServeOptions): Promise<void> {
  const { host, port } = opts;
  const dataFile = opts.memory ? null : dataFileOf(deps, opts);
  if (dataFile) await mkdir(dirname(dataFile), { recursive: true, mode: 0o700 });
  const sb = await startSandbox({
    host,
    port,
    dataFile,
    latencyMs: opts.latency,
    failRate: opts.failRate,
    html502Rate: opts.html502Rate,
    resetRate: opts.resetRate,
    throttleRate: opts.throttleRate,
    retryAfterSeconds: opts.retryAfter,
    faultFirst: opts.faultFirst,
    onWarning: (text) => deps.msg.warn(text),
    compactOnClose: true, // a server stops rarely: leave a bare snapshot behind
    // Not a flag: tests and benchmarks set a small bound to compact often.
    compactBytes: envBytes(deps.env.RENTCTL_SANDBOX_COMPACT_BYTES, "RENTCTL_SANDBOX_COMPACT_BYTES"),
  }).catch((err: unknown) => {
    throw expectedSandboxError(err, { ...opts, host, port, file: dataFile });
  });
  // Take over Ctrl-C and SIGTERM before the address is printed: whoever reads it may stop us at once.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    // replace the default exit on Ctrl-C and on SIGTERM with a clean stop
    process.removeAllListeners("SIGINT");
    process.removeAllListeners("SIGTERM");
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  const info: JsonObject = {
    url: sb.url,
    data_file: dataFile,
    pid: process.pid,
    owners: sb.owners.map((o) => ({ user_id: o.userId, api_key: o.apiKey, name: o.name })),
  };
  if (dataFile) writeFileSync(stateFile(dataFile), JSON.stringify(info), { mode: 0o600 });
  const c = deps.color;
  if (deps.settings().output === "json" || deps.settings().output === "ndjson")
    deps.io.stdout.write(`${JSON.stringify(info)}\n`);
  else deps.io.stdout.write(`${sb.url}\n`);
  deps.msg.info(
    [
      `${c.bold("rentctl sandbox")} listening on ${c.cyan(sb.url)} — a local stand-in for the marketplace, not the marketplace`,
      `data: ${dataFile ?? "in memory"}`,
      ...sb.owners.map((o) => `owner ${o.userId} (${o.name}): key ${o.apiKey}`),
      `try: RENTCTL_ENV=sandbox RENTCTL_BASE_URL=${sb.url} rentctl vehicle list`,
      "Ctrl-C stops it",
    ].join("\n"),
  );
  const signal = await stopped;
  await sb.close();
  if (dataFile) rmSync(stateFile(dataFile), { force: true });
  deps.msg.info("sandbox stopped");
  // The same clean stop for both. Ctrl-C is how a person ends a server (exit 0, as always); SIGTERM
  // is a supervisor's stop and gets its documented code (143), as every other command does.
  if (signal === "SIGTERM") {
    throw new TerminatedError("sandbox stopped (SIGTERM)");
  }
}
