import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { countedSandbox, vehicleRow } from "../fleet/helpers.js";
import { json, runBuilt } from "../helpers/cli.js";

/**
 * An account apply whose extra create lands on the server but whose answer is lost (the proxy
 * forwards the request, lets it commit, then drops the connection): the undo of that apply finds
 * the extra by its identity (option, period, price) after the fact and deletes it, instead of
 * leaving it behind.
 */

let sb: Awaited<ReturnType<typeof countedSandbox>>;
const dir = mkdtempSync(join(tmpdir(), "account-lost-"));
const cli = (args: string[]) => runBuilt([...args, "--user", "1003"], sb.env);

beforeAll(async () => {
  sb = await countedSandbox();
}, 60_000);
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("undo of an extra create whose answer was lost", () => {
  it("the undo looks the extra up by option + period + price and deletes it; the account is empty again", async () => {
    const f = join(dir, "account.yaml");
    const { vehicle_extras: _x, ...row } = vehicleRow("LOST-1");
    writeFileSync(
      f,
      stringify({
        extras: [
          { option: "GPS navigator", price: 7, currency: "EUR", period: 1, quantity: 3, active: "on" },
          { option: "Child seat", price: 5, currency: "EUR", period: 1, quantity: 2, active: "on" },
        ],
        vehicles: [{ ...row, extras: ["Child seat"] }],
      }),
    );
    let dropped = 0;
    sb.proxy.decide = ({ method, path, body }) => {
      // the GPS navigator's create commits, its answer never comes (once)
      if (method === "POST" && path.endsWith("/extras/create") && body.toString().includes("price=7") && !dropped++)
        return { kind: "drop" };
      return { kind: "pass" };
    };
    const a = await cli(["account", "apply", "-f", f, "--yes"]);
    expect(a.code, a.stderr).not.toBe(0);
    expect(dropped).toBe(1);
    const op = /rentctl undo (\S+)/.exec(a.stderr)?.[1];
    expect(op, a.stderr).toBeDefined();
    // the extra landed: the server has it though the apply never learned its id
    const landed = json<Array<{ id: number; price: number }>>((await cli(["extra", "list", "-o", "json"])).stdout);
    expect(landed.map((e) => e.price).sort()).toContain(7);

    sb.proxy.decide = () => ({ kind: "pass" });
    // --timeout 1: the apply's request left in flight is waited for that long (not the default 30 s)
    const dry = await cli(["undo", op!, "--dry-run", "--timeout", "1"]);
    expect(dry.stdout).toMatch(/delete the extra of this option, period and price, if the apply's create landed/);
    const u = await cli(["undo", op!, "--yes", "--timeout", "1"]);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stderr).toMatch(/answer lost.*found as extra \d+/);
    const after = parse((await cli(["account", "export", "-"])).stdout);
    expect(after).toEqual({ extras: [], vehicles: [] });
  }, 60_000);
});
