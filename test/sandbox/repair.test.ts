import { readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../src/base/errors.js";
import { repairSandboxData, SandboxDataCorruptError } from "../../src/sandbox/server.js";
import { walPath } from "../../src/sandbox/store.js";
import { type Api, start, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => void;
let file: string;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  file = join(dir, "sandbox.json");
});
afterEach(() => cleanup());

const switchExtra = (api: Api) => api.post("vehicles/extras/switch", { extra_id: 1 });
const extraActive = async (api: Api): Promise<number> =>
  (await api.get("vehicles/extras/list/id", { extra_id: 1, locale_id: 40 })).body.data.is_active;
const vehicleIds = async (api: Api): Promise<number[]> =>
  (await api.get("vehicles/list", { user_id: 1001, locale_id: 40, limit: 1000 })).body.data.map(
    (v: { id: number }) => v.id,
  );

/**
 * A data file as a crash leaves it: the seed snapshot and a journal of `n`
 * switches of extra 1 (lines 1..n). (A clean close folds the journal into
 * the snapshot, so the files are copied while the server runs.)
 */
async function journalOf(n: number): Promise<string[]> {
  const { sb, api } = await start({ dataFile: file });
  for (let i = 0; i < n; i++) expect((await switchExtra(api)).status).toBe(200);
  const snapshot = readFileSync(file);
  const journal = readFileSync(walPath(file), "utf8");
  await sb.close();
  writeFileSync(file, snapshot);
  writeFileSync(walPath(file), journal);
  return journal.split("\n").filter(Boolean);
}

describe("damaged sandbox data", () => {
  it("a torn last journal line is dropped with a warning naming it, and cut off the file so later appends stay whole", async () => {
    const lines = await journalOf(2);
    writeFileSync(walPath(file), `${lines.join("\n")}\n${lines[1]!.replace('"s":2', '"s":3').slice(0, 60)}`);
    const warnings: string[] = [];
    const { sb, api } = await start({ dataFile: file, onWarning: (w) => warnings.push(w) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${walPath(file)} line 3`);
    expect(warnings[0]).toMatch(/entry 3: extra\.put id 1/);
    expect(await extraActive(api)).toBe(1); // two switches kept: back to active
    expect((await switchExtra(api)).status).toBe(200);
    await sb.close();
    // Reopening reads every line: the torn fragment did not glue onto the next append.
    const again = await start({ dataFile: file, onWarning: (w) => warnings.push(w) });
    expect(await extraActive(again.api)).toBe(0);
    await again.sb.close();
    expect(warnings).toHaveLength(1);
  });

  it("a garbled line in the middle of the journal: exit-2 error naming the file and the line, hint to repair", async () => {
    const lines = await journalOf(4);
    lines[1] = "{garbled";
    writeFileSync(walPath(file), `${lines.join("\n")}\n`);
    const err = await start({ dataFile: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxDataCorruptError);
    const e = err as SandboxDataCorruptError;
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.message).toBe(`sandbox data is damaged: ${walPath(file)} line 2: not a valid journal entry (garbled)`);
    expect(e.hint).toMatch(/rentctl sandbox repair.*drops 3 entries from line 2 on.*moves the damaged file aside/);
  });

  it("a half-written snapshot: the error names the line where it breaks off", async () => {
    const { sb } = await start({ dataFile: file });
    await sb.close();
    const text = readFileSync(file, "utf8");
    const cut = text.indexOf('"extras":[');
    truncateSync(file, cut + 40);
    const line = text.slice(0, cut + 40).split("\n").length;
    const err = (await start({ dataFile: file }).catch((e: unknown) => e)) as SandboxDataCorruptError;
    expect(err).toBeInstanceOf(SandboxDataCorruptError);
    expect(err.damage).toMatchObject({ file, line });
    expect(err.message).toMatch(/half written/);
  });

  it("repair keeps every record before the damage, moves the damaged journal aside, counts what it dropped", async () => {
    const lines = await journalOf(5);
    const original = [...lines.slice(0, 3), "garbage in the middle", ...lines.slice(3)].join("\n");
    writeFileSync(walPath(file), `${original}\n`);
    const report = repairSandboxData(file);
    expect(report).toMatchObject({
      repaired: true,
      journalDamage: { file: walPath(file), line: 4 },
      kept: { journalEntries: 3 },
      dropped: 3,
    });
    expect(report.movedAside).toHaveLength(1);
    expect(readFileSync(report.movedAside[0]!, "utf8")).toBe(`${original}\n`); // never deleted, byte for byte
    const { sb, api } = await start({ dataFile: file });
    expect(await extraActive(api)).toBe(0); // three switches kept
    expect(await vehicleIds(api)).toEqual([1, 2, 3]);
    await sb.close();
    expect(repairSandboxData(file)).toMatchObject({ repaired: false, dropped: 0 });
  });

  it("repair of a half-written snapshot keeps the rows before the break and replays the journal", async () => {
    await journalOf(1);
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n");
    const v3 = lines.findIndex((l) => l.startsWith('{"id":3,'));
    writeFileSync(file, `${lines.slice(0, v3).join("\n")}\n${lines[v3]!.slice(0, 25)}`);
    const report = repairSandboxData(file);
    expect(report.snapshotDamage).toMatchObject({ file, line: v3 + 1 });
    expect(report.kept.vehicles).toBe(2);
    expect(report.dropped).toBe(1);
    expect(readdirSync(dir).filter((n) => n.includes(".damaged-"))).toHaveLength(1);
    const again = await start({ dataFile: file });
    expect(await vehicleIds(again.api)).toEqual([1, 2]);
    expect(await extraActive(again.api)).toBe(0);
    await again.sb.close();
  });

  it("repair refuses while a sandbox serves the file", async () => {
    const { sb } = await start({ dataFile: file });
    expect(() => repairSandboxData(file)).toThrow(/in use by process/);
    await sb.close();
  });
});
