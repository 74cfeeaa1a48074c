import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../src/base/errors.js";
import type { OwnedDeps } from "../../src/deps.js";
import { libraryContext } from "../../src/library/context.js";
import { createSandbox, type Sandbox, sampleVehicle } from "../../src/library/sandbox.js";
import { undoHistory } from "../../src/ops/undo/history.js";
import { CLI_UNDO_HINTS, TOOL_UNDO_HINTS, undo, undoneLine } from "../../src/ops/undo/undo.js";
import { createVehicle } from "../../src/ops/vehicle/create.js";
import { removeVehicle } from "../../src/ops/vehicle/remove.js";

/**
 * The undo op (src/ops/undo/undo.ts) in this process: what it returns for each kind of op (a
 * removal re-created under a new id, old -> new; a create removed), a dry run that sends nothing
 * and marks nothing, and refusals worded for the front end that asked.
 */

let sb: Sandbox;
let dataDir: string;
let ctx: OwnedDeps;
let close: () => Promise<void>;
const sent = (from: number) =>
  sb
    .requests()
    .slice(from)
    .map((r) => r.operation);

beforeAll(async () => {
  sb = await createSandbox();
  dataDir = await mkdtemp(join(tmpdir(), "rentctl-undo-op-"));
  const lib = libraryContext({ baseUrl: sb.url, apiKey: sb.apiKey, userId: sb.userId, dataDir });
  ctx = lib.deps;
  close = lib.close;
});
afterAll(async () => {
  await close?.();
  await sb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("undo (the op)", () => {
  it("a removal: a dry run answers the create and sends nothing; the undo re-creates it under a new id", async () => {
    const made = await createVehicle(ctx, {
      values: { ...sampleVehicle(1001), vehicle_reg_number: "UNDO 1" } as Record<string, unknown>,
    });
    const gone = await removeVehicle(ctx, { id: made.id! });
    const from = sb.requests().length;
    const dry = await undo(ctx, { op: gone.undoOp!, dryRun: true });
    expect(dry).toMatchObject({ kind: "recreated", from: made.id, undone: false, recreated: [] });
    if (dry.kind !== "recreated") throw new Error(dry.kind);
    expect(dry.dryRun?.request).toMatchObject({ method: "POST" });
    expect(sent(from)).not.toContain("vehicles.create");
    expect(undoneLine(dry)).toBeUndefined();

    const progress: string[] = [];
    const r = await undo(ctx, { op: gone.undoOp! }, { onProgress: (p) => progress.push(p.what) });
    if (r.kind !== "recreated") throw new Error(r.kind);
    expect(r.id).toBeGreaterThan(made.id!);
    expect(r.recreated).toEqual([{ kind: "vehicle", from: made.id, to: r.id }]);
    expect(r.undone).toBe(true);
    expect(progress).toEqual(["creating a vehicle"]);
    expect(undoneLine(r)).toBe(
      `vehicle ${made.id} re-created as vehicle ${r.id} (the server assigns new ids: ${made.id} → ${r.id})`,
    );
  });

  it("a create: the vehicle removed; a second undo is refused", async () => {
    const made = await createVehicle(ctx, {
      values: { ...sampleVehicle(1001), vehicle_reg_number: "UNDO 2" } as Record<string, unknown>,
    });
    const [last] = await undoHistory(ctx, { limit: 1 });
    expect(last).toMatchObject({ action: "vehicle.create", id: made.id });
    const r = await undo(ctx, { op: last!.op });
    expect(r).toMatchObject({ kind: "removed", id: made.id, said: `vehicle ${made.id} removed`, undone: true });
    await expect(undo(ctx, { op: last!.op })).rejects.toThrow(/already undone/);
  });

  it("refusals name the next step in the words of the front end that asked", async () => {
    const cli = (await undo(ctx, { op: "nope" }).catch((e: unknown) => e)) as UsageError;
    expect(cli).toBeInstanceOf(UsageError);
    expect(cli.hint).toBe(CLI_UNDO_HINTS.list);
    const tool = (await undo(ctx, { op: "nope" }, { hints: TOOL_UNDO_HINTS }).catch((e: unknown) => e)) as UsageError;
    expect(tool.hint).toBe("list them with the undo_history tool");
  });
});
