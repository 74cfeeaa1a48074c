import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { EXIT, exitCodeOf, StorageError } from "../../src/base/errors.js";
import { RowLog } from "../../src/bulk/row-log.js";

/**
 * Disk full while journaling (issue "Hostile input"): one clear line naming
 * the journal and the cause in words, exit 6, and the error stops a bulk run
 * (stopsRun): a row whose `sending` did not reach the disk is never sent.
 */
const dir = mkdtempSync(join(tmpdir(), "rentctl-enospc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const key = { job: "vehicle.import", env: "sandbox", baseUrl: "http://x", owner: 1001, contentHash: "h" };

async function fileHandlePrototype(): Promise<object> {
  const fh = await open(join(dir, "probe"), "w");
  const proto = Object.getPrototypeOf(fh) as object;
  await fh.close();
  return proto;
}

describe("the row log on a full disk", () => {
  it("a durable write that fails is a StorageError: no space left, the journal named, exit 6, stops the run", async () => {
    const log = await RowLog.open(dir, key);
    const proto = await fileHandlePrototype();
    vi.spyOn(proto as { write: () => Promise<unknown> }, "write").mockRejectedValue(
      Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }),
    );
    const e = await log.write({ row: 1, key: "k", state: "sending" }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StorageError);
    const err = e as StorageError;
    expect(err.message).toBe(`cannot write the row log ${log.file}: no space left on the device`);
    expect(err.stopsRun).toBe(true);
    expect(exitCodeOf(err)).toBe(EXIT.network);
    expect(err.hint).toMatch(/rerun the same command: it resumes/);
    vi.restoreAllMocks();
    await log.close();
  });
});
