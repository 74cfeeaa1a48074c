import { rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { JsonObject } from "../../contract/records.js";
import type { Deps } from "../../deps.js";
import { UsageError } from "../../errors.js";
import { dataFileOf, expectedSandboxError, stateFile } from "./data.js";

/** `rentctl sandbox serve`: run the sandbox as an HTTP server until Ctrl-C or SIGTERM. */

interface ServeOptions {
  host?: string;
  port?: string;
  data?: string;
  memory?: boolean;
  latency?: string;
  failRate?: string;
  html502Rate?: string;
  resetRate?: string;
  throttleRate?: string;
  retryAfter?: string;
  faultFirst?: string;
}

function envBytes(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name}: expected a whole number of bytes, got ${JSON.stringify(v)}`);
  return n;
}

function num(v: string | undefined, flag: string, max?: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (max !== undefined && n > max)) {
    throw new UsageError(
      `${flag}: expected a number${max !== undefined ? ` from 0 to ${max}` : " of at least 0"}, got ${JSON.stringify(v)}`,
    );
  }
  return n;
}

export async function serve(deps: Deps, opts: ServeOptions): Promise<void> {
  const { startSandbox } = await import("../../sandbox/server.js");
  const port = num(opts.port, "--port", 65535) ?? 4010;
  const dataFile = opts.memory ? null : dataFileOf(deps, opts);
  if (dataFile) await mkdir(dirname(dataFile), { recursive: true });
  const host = opts.host ?? "127.0.0.1";
  const sb = await startSandbox({
    host,
    port,
    dataFile,
    latencyMs: num(opts.latency, "--latency"),
    failRate: num(opts.failRate, "--fail-rate", 1),
    html502Rate: num(opts.html502Rate, "--html502-rate", 1),
    resetRate: num(opts.resetRate, "--reset-rate", 1),
    throttleRate: num(opts.throttleRate, "--throttle-rate", 1),
    retryAfterSeconds: num(opts.retryAfter, "--retry-after"),
    faultFirst: num(opts.faultFirst, "--fault-first"),
    onWarning: (text) => deps.msg.warn(text),
    compactOnClose: true, // a server stops rarely: leave a bare snapshot behind
    // Not a flag: tests and benchmarks set a small bound to compact often.
    compactBytes: envBytes(deps.env.RENTCTL_SANDBOX_COMPACT_BYTES, "RENTCTL_SANDBOX_COMPACT_BYTES"),
  }).catch((err: unknown) => {
    throw expectedSandboxError(err, { ...opts, host, port, file: dataFile });
  });
  // Take over Ctrl-C and SIGTERM before the address is printed: whoever reads it may stop us at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    // replace the default exit-on-Ctrl-C with a clean stop
    process.removeAllListeners("SIGINT");
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
  await stopped;
  await sb.close();
  if (dataFile) rmSync(stateFile(dataFile), { force: true });
  deps.msg.info("sandbox stopped");
}
