import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, ROOT, runMain, sandboxEnv } from "../helpers/cli.js";
import { type FaultProxy, ndjson, startProxy, vehicleRow } from "./helpers.js";

/**
 * `vehicle apply` through the CLI (in-process, runMain), against the sandbox behind a
 * recording proxy: only the planned requests are sent, the prune guard, the
 * conflict check, no TTY without --yes, undo restores the previous fleet.
 */

let sandbox: Awaited<ReturnType<typeof sandboxEnv>>;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(join(tmpdir(), "fleet-apply-"));

const API = "/api/v302/vehicles";
const posts = () =>
  [...proxy.counts].filter(([k, n]) => k.startsWith("POST ") && n > 0).map(([k, n]) => `${k.slice(5)} ×${n}`);
const cli = (user: string, args: string[]) => runMain([...args, "--user", user], env);
const direct = (user: string, args: string[]) => runMain([...args, "--user", user], sandbox.env);
const file = (name: string, rows: Record<string, unknown>[]) => {
  const p = join(dir, name);
  writeFileSync(p, ndjson(rows));
  return p;
};

async function exportRows(user: string, withIds = false): Promise<Record<string, unknown>[]> {
  const r = await direct(user, ["vehicle", "export", "-", ...(withIds ? ["--with-ids"] : [])]);
  expect(r.code).toBe(0);
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => json<Record<string, unknown>>(l));
}

async function seed(user: string, prefix: string, n: number): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => vehicleRow(`${prefix}-${i}`, { price_per_day: 40 + i }));
  const r = await direct(user, ["vehicle", "import", file(`${prefix}.ndjson`, rows)]);
  expect(r.code).toBe(0);
}

const withPrice = (rows: Record<string, unknown>[], reg: string, price: number) =>
  rows.map((r) => (r.vehicle_reg_number === reg ? { ...r, price_per_day: price } : r));

beforeAll(async () => {
  sandbox = await sandboxEnv();
  proxy = await startProxy(sandbox.sb.url);
  env = { ...sandbox.env, RENTCTL_BASE_URL: proxy.url };
  await seed("1002", "AP", 6);
  await seed("1003", "PR", 6);
}, 120_000);
afterAll(async () => {
  await proxy.close();
  await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("vehicle apply (CLI in-process, recording proxy)", () => {
  it("without a terminal and without --yes: exit 2, a one-line hint, nothing sent", async () => {
    const f = file("noyes.ndjson", withPrice(await exportRows("1002"), "AP-1", 99));
    proxy.counts.clear();
    const r = await cli("1002", ["vehicle", "apply", "-f", f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("~ AP-1");
    expect(r.stderr).toMatch(/error: refusing to apply the plan without confirmation\nhint: pass --yes/);
    expect(posts()).toEqual([]);
    const dry = await cli("1002", ["vehicle", "apply", "-f", f, "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("    price_per_day: 41 → 99");
    expect(posts()).toEqual([]);
  });

  it("sends only the planned requests (one create, one full-record edit); then diff exits 0; undo restores the fleet", async () => {
    const before = await exportRows("1002");
    const rows = [...withPrice(before, "AP-2", 77), vehicleRow("AP-NEW", { price_per_day: 33 })];
    const f = file("apply.ndjson", rows);
    proxy.counts.clear();
    const r = await cli("1002", ["vehicle", "apply", "-f", f, "--yes", "-o", "ndjson"]);
    expect(r.stderr).toMatch(/created 1, changed 1, removed 0, conflict 0, failed 0/);
    expect(r.code).toBe(0);
    expect(posts()).toEqual([`${API}/create ×1`, `${API}/edit ×1`]);
    expect(proxy.counts.get(`GET ${API}/list/id`)).toBe(1); // the re-read before the edit
    const results = r.stdout
      .trim()
      .split("\n")
      .map((l) => json<{ identity: string; status: string }>(l));
    expect(results.map((x) => `${x.identity} ${x.status}`).sort()).toEqual(["AP-2 changed", "AP-NEW created"]);
    // The edit carried the full record, not just the price.
    const diff = await cli("1002", ["vehicle", "diff", "-f", f]);
    expect(diff.stdout).toBe(`Plan: 0 to create, 0 to change, 0 to remove, ${rows.length} unchanged.\n`);
    expect(diff.code).toBe(0);
    const edited = (await exportRows("1002")).find((x) => x.vehicle_reg_number === "AP-2")!;
    const was = before.find((x) => x.vehicle_reg_number === "AP-2")!;
    expect(edited).toEqual({ ...was, price_per_day: 77 });

    const op = /undo with: rentctl undo (\S+)/.exec(r.stderr)?.[1];
    expect(op).toBeDefined();
    const u = await cli("1002", ["undo", op!]);
    expect(u.stderr).toMatch(/1 restored, 1 created vehicles removed, 0 removed vehicles re-created/);
    expect(u.code).toBe(0);
    expect(await exportRows("1002")).toEqual(before);
    const part = await cli("1002", ["undo", `${op}.1`]);
    expect(part.code).toBe(2);
    expect(part.stderr).toContain(`is part of apply ${op}`);
    expect((await cli("1002", ["undo", op!])).stderr).toMatch(/already undone/);
  });

  it("--prune: the mass-removal guard refuses and sends nothing; --allow-mass-delete proceeds; undo re-creates", async () => {
    const before = await exportRows("1003");
    const keep = before.filter((x) => x.vehicle_reg_number === "PR-0");
    proxy.counts.clear();
    const r = await cli("1003", ["vehicle", "apply", "-f", file("prune.ndjson", keep), "--prune", "--yes"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /refusing to apply: --prune would remove \d+ of the account's \d+ vehicles \(more than half\)/,
    );
    expect(posts()).toEqual([]);
    const empty = await cli("1003", ["vehicle", "apply", "-f", file("empty.ndjson", []), "--prune", "--yes"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the file lists no vehicles/);
    expect(posts()).toEqual([]);

    const ok = await cli("1003", [
      "vehicle",
      "apply",
      "-f",
      file("prune.ndjson", keep),
      "--prune",
      "--yes",
      "--allow-mass-delete",
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(new RegExp(`removed ${before.length - 1}, conflict 0, failed 0`));
    expect(posts()).toEqual([`${API}/remove ×${before.length - 1}`]);
    expect((await exportRows("1003")).map((x) => x.vehicle_reg_number)).toEqual(["PR-0"]);

    const op = /undo with: rentctl undo (\S+)/.exec(ok.stderr)![1]!;
    const u = await cli("1003", ["undo", op]);
    expect(u.code).toBe(0);
    expect(u.stderr).toMatch(new RegExp(`${before.length - 1} removed vehicles re-created`));
    // Ids change, so compare the fleets as sets of rows.
    const key = (x: Record<string, unknown>) => JSON.stringify(x);
    expect((await exportRows("1003")).map(key).sort()).toEqual(before.map(key).sort());
  });

  it("a vehicle changed between the plan and the send: row conflict, exit 7, nothing overwritten", async () => {
    const rows = await exportRows("1002", true);
    const target = rows.find((x) => x.vehicle_reg_number === "AP-3")!;
    const f = file(
      "conflict.ndjson",
      rows.map(({ vehicle_id: _v, vehicle_images: _i, vehicle_extras: _e, ...x }) =>
        x.vehicle_reg_number === "AP-3" ? { ...x, price_per_day: 55 } : x,
      ),
    );
    let meddle: Promise<unknown> | undefined;
    proxy.decide = ({ method, path }) => {
      if (method === "GET" && path === `${API}/list/id` && !meddle) {
        // Someone else edits the vehicle after the plan was made, before the CLI's re-read lands.
        meddle = direct("1002", ["vehicle", "edit", String(target.vehicle_id), "--price-per-day", "66"]);
        return { kind: "wait", until: meddle };
      }
      return { kind: "pass" };
    };
    proxy.counts.clear();
    try {
      const r = await cli("1002", ["vehicle", "apply", "-f", f, "--yes"]);
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/changed 0, removed 0, conflict 1, failed 0/);
      expect(r.stderr).toMatch(/hint: run `rentctl vehicle diff -f .*conflict\.ndjson` again/);
      expect(posts()).toEqual([]);
    } finally {
      proxy.decide = () => ({ kind: "pass" });
    }
    expect(((await meddle) as { code: number }).code).toBe(0);
    const now = (await exportRows("1002")).find((x) => x.vehicle_reg_number === "AP-3")!;
    expect(now.price_per_day).toBe(66);
  });

  it("images: paths are uploaded and attached (new vehicle, or one without images); rows without images leave them alone", async () => {
    copyFileSync(join(ROOT, "examples/images/corolla-front.png"), join(dir, "front.png"));
    const current = await exportRows("1002");
    const rows = current.map((x) => {
      if (x.vehicle_reg_number === "AP-4") return { ...x, images: ["front.png"] };
      if (x.vehicle_reg_number === "AP-5") return { ...x, price_per_day: 90 };
      return x;
    });
    rows.push(vehicleRow("AP-IMG", { images: ["front.png"] }));
    const f = file("images.ndjson", rows);
    const plan = await cli("1002", ["vehicle", "diff", "-f", f]);
    expect(plan.code).toBe(8);
    expect(plan.stdout).toContain('    vehicle_images: (empty) → ["file front.png"]');
    proxy.counts.clear();
    const r = await cli("1002", ["vehicle", "apply", "-f", f, "--yes"]);
    expect(r.stderr).toMatch(/created 1, changed 2, removed 0, conflict 0, failed 0/);
    expect(r.code).toBe(0);
    expect(proxy.counts.get(`POST ${API}/upload`)).toBe(2);
    const after = await exportRows("1002", true);
    const images = (reg: string) => after.find((x) => x.vehicle_reg_number === reg)?.vehicle_images;
    expect(images("AP-4")).toHaveLength(1);
    expect(images("AP-IMG")).toHaveLength(1);
    // The vehicle has images now: the same file is no difference any more (they are never uploaded twice).
    const again = await cli("1002", ["vehicle", "diff", "-f", f]);
    expect(again.code).toBe(0);
    // A row without images keeps the vehicle's images through a change.
    const keep = file(
      "keep.ndjson",
      rows.filter((x) => x.vehicle_reg_number === "AP-4").map(({ images: _i, ...x }) => ({ ...x, price_per_day: 91 })),
    );
    expect((await cli("1002", ["vehicle", "apply", "-f", keep, "--yes"])).code).toBe(0);
    const kept = (await exportRows("1002", true)).find((x) => x.vehicle_reg_number === "AP-4")!;
    expect(kept.price_per_day).toBe(91);
    expect(kept.vehicle_images).toEqual(images("AP-4"));
  });
});
