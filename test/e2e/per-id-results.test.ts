import { afterEach, describe, expect, it } from "vitest";
import { json, sandboxCli } from "../helpers/cli.js";

/**
 * Commands that act on several ids, with -o json: stdout one array of
 * per-id results `{id, ok, status, ..., error?}`, the same keys leading in
 * every command; stderr no line per id, only the one-line failure summary
 * (exit 7 when some failed). Table output keeps its lines for a person.
 */

const { cli, cleanup } = sandboxCli();
afterEach(cleanup);

type Row = { id: number; ok: boolean; status: string; error?: string } & Record<string, unknown>;

/** stderr without the one line that names the target (said once, before anything is sent). */
const perIdLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l !== "" && !/ on sandbox as owner 1001 · sandbox:$/.test(l));

describe("per-id results with -o json", () => {
  it("vehicle remove 1 999: one array, ok/status on every row, only the failure summary on stderr, exit 7", async () => {
    const r = await cli("vehicle", "remove", "1", "999", "--yes", "-o", "json");
    expect(r.code).toBe(7);
    const rows = json<Row[]>(r.stdout);
    expect(rows).toMatchObject([
      { id: 1, ok: true, status: "removed", removed: true },
      { id: 999, ok: false, status: "failed", error: expect.stringMatching(/not found/) },
    ]);
    expect(Object.keys(rows[0]!).slice(0, 3)).toEqual(["id", "ok", "status"]);
    expect(Object.keys(rows[1]!).slice(0, 3)).toEqual(["id", "ok", "status"]);
    const lines = perIdLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(json<{ error: { exit_code: number; kind: string } }>(lines[0]!).error).toMatchObject({
      exit_code: 7,
      kind: "partial_failure",
    });
  });

  it("vehicle activate / deactivate: the same keys, the status says what happened", async () => {
    const a = await cli("vehicle", "activate", "1", "999", "--yes", "-o", "json");
    expect(a.code).toBe(7);
    expect(json<Row[]>(a.stdout)).toMatchObject([
      { id: 1, ok: true, status: "unchanged", changed: false },
      { id: 999, ok: false, status: "failed" },
    ]);
    expect(perIdLines(a.stderr)).toHaveLength(1);

    const d = await cli("vehicle", "deactivate", "1", "2", "-o", "json");
    expect(d.code, d.stderr).toBe(0);
    expect(json<Row[]>(d.stdout)).toMatchObject([
      { id: 1, ok: true, status: "deactivated", vehicle_activity: 0 },
      { id: 2, ok: true, status: "deactivated", vehicle_activity: 0 },
    ]);
    // the target is named once, not once per vehicle
    expect(d.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("extra delete -o json: one result with the same leading keys", async () => {
    const r = await cli("extra", "delete", "1", "--yes", "-o", "json");
    expect(r.code, r.stderr).toBe(0);
    const row = json<Row>(r.stdout);
    expect(row).toMatchObject({ id: 1, ok: true, status: "deleted", deleted: true });
    expect(Object.keys(row).slice(0, 3)).toEqual(["id", "ok", "status"]);
  });

  it("the table format keeps the lines for a person", async () => {
    const r = await cli("vehicle", "remove", "2", "999", "--yes");
    expect(r.code).toBe(7);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/✓ vehicle 2 removed/);
    expect(r.stderr).toMatch(/warning: remove 999: not found/);
  });
});
