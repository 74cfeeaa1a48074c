import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CliResult, extraCreateArgs, json, runMain, sandboxEnv } from "../helpers/cli.js";

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  runMain(args, { ...env, ...extraEnv });

beforeEach(async () => {
  ctx = await sandboxEnv();
  env = ctx.env;
});
afterEach(async () => ctx.cleanup());

async function createExtra(args: string[] = []): Promise<number> {
  const r = await cli([
    ...extraCreateArgs({ option: "child seat", price: 8, currency: "EUR", period: 1, quantity: 3 }),
    "-q",
    ...args,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

const getExtra = async (id: number) =>
  json<Record<string, unknown>>((await cli(["extra", "get", String(id), "-o", "json"])).stdout);

describe("extras", () => {
  it("options lists the option types (public, no key needed)", async () => {
    const r = await cli(["extra", "options", "-o", "json"], { RENTCTL_API_KEY: "" });
    expect(r.code, r.stderr).toBe(0);
    expect(json<Array<{ name: string }>>(r.stdout).some((o) => /child seat/i.test(o.name))).toBe(true);
  });

  it("create resolves --option and --currency by name and prints the id; get shows it", async () => {
    const id = await createExtra();
    const got = await getExtra(id);
    expect(got).toMatchObject({ id, price: 8, quantity: 3, period: 1, currency_id: 1 });
  });

  it("an ambiguous or unknown name is rejected with the candidates, nothing sent", async () => {
    const r = await cli(extraCreateArgs({ option: "seat", price: 8, currency: "EUR", period: 1, quantity: 1 }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/matches 2 extra options: .*Child seat.*Booster seat/i);
  });

  it("update keeps the quantity (a naive full replacement would have cleared it)", async () => {
    const id = await createExtra();
    const r = await cli(["extra", "update", String(id), "--price", "12"]);
    expect(r.code, r.stderr).toBe(0);
    expect(await getExtra(id)).toMatchObject({ price: 12, quantity: 3, currency_id: 1, period: 1 });
  });

  it("update --dry-run shows the diff and sends nothing", async () => {
    const id = await createExtra();
    const r = await cli(["extra", "update", String(id), "--quantity", "9", "--dry-run", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ changes: unknown[] }>(r.stdout).changes).toEqual([{ field: "quantity", before: 3, after: 9 }]);
    expect((await getExtra(id)).quantity).toBe(3);
  });

  it("switch toggles and prints the resulting state", async () => {
    const id = await createExtra();
    const a = await cli(["extra", "switch", String(id)]);
    const b = await cli(["extra", "switch", String(id)]);
    expect(a.code, a.stderr).toBe(0);
    expect([a.stdout.trim(), b.stdout.trim()].sort()).toEqual(["off", "on"]);
  });

  it("delete needs --yes without a TTY; then get is 404 (exit 5); undo re-creates it", async () => {
    const id = await createExtra();
    expect((await cli(["extra", "delete", String(id)])).code).toBe(2);
    expect((await cli(["extra", "delete", String(id), "--yes"])).code).toBe(0);
    const missing = await cli(["extra", "get", String(id)]);
    expect(missing.code).toBe(5);
    const op = (await cli(["undo", "-q"])).stdout.trim().split("\n")[0]!;
    const u = await cli(["undo", op, "-q"]);
    expect(u.code, u.stderr).toBe(0);
    expect(await getExtra(Number(u.stdout.trim()))).toMatchObject({ price: 8, quantity: 3 });
  });

  it("a bad price is rejected before sending (exit 2); a missing option too", async () => {
    const bad = await cli(extraCreateArgs({ option: 1, price: -5, currency: 1, period: 1, quantity: 1 }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/price: must be at least 0/);
    const missing = await cli([
      "extra",
      "create",
      "--price",
      "5",
      "--currency",
      "1",
      "--period",
      "1",
      "--quantity",
      "1",
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/option_id: is required/);
  });

  it("the API's own 400 is exit 3 with the field details (sent raw through --set)", async () => {
    const r = await cli([
      "api",
      "vehicles/extras/create",
      "-X",
      "POST",
      "-f",
      "locale_id=40",
      "-f",
      "option_id=1",
      "-f",
      "price=abc",
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/validation error/);
    expect(r.stderr).toMatch(/price/);
  });

  it("another owner's key is a 401 (exit 4); a missing extra is exit 5", async () => {
    const id = await createExtra();
    const other = await cli(["extra", "get", String(id)], {
      RENTCTL_API_KEY: "sandbox-key-1002",
      RENTCTL_USER_ID: "1002",
    });
    expect(other.code).toBe(4);
    expect((await cli(["extra", "switch", "999999"])).code).toBe(5);
    expect((await cli(["extra", "update", "999999", "--price", "1"])).code).toBe(5);
  });

  it("the card names the option once: the server's option_name is not repeated under Other", async () => {
    const r = await cli(["extra", "get", "1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Option\s+Child seat/);
    expect(r.stdout).not.toMatch(/option_name/);
    // json keeps every member as the server sent it
    expect(json<Record<string, unknown>>((await cli(["extra", "get", "1", "-o", "json"])).stdout).option_name).toBe(
      "Child seat",
    );
  });

  it("list pages with a footer; --all streams and never repeats", async () => {
    for (let i = 0; i < 5; i++) await createExtra();
    const page = await cli(["extra", "list", "--limit", "2"]);
    expect(page.code).toBe(0);
    expect(page.stderr).toMatch(/page 1 of \d+ · 2 of \d+ extras/);
    const all = await cli(["extra", "list", "--all", "--limit", "2", "-o", "ndjson"]);
    const ids = all.stdout
      .trim()
      .split("\n")
      .map((l) => json<{ id: number }>(l).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(5);
  });
});
