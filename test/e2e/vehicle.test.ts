import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WRITE_GRANT } from "../../src/api/write-grant.js";
import { sampleVehicleInput } from "../../src/sandbox/server.js";
import { type CliResult, json, runBuilt, runMain, sandboxEnv } from "../helpers/cli.js";

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], opts: { input?: string; tty?: boolean } = {}): Promise<CliResult> =>
  runMain(args, env, opts);

beforeEach(async () => {
  ctx = await sandboxEnv();
  env = ctx.env;
});
afterEach(async () => ctx.cleanup());

function carFile(extra: Record<string, unknown> = {}): string {
  const { user_id: _u, ...fields } = sampleVehicleInput(1001);
  const file = join(env.RENTCTL_DATA_DIR!, "..", `car-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ ...fields, ...extra }));
  return file;
}

async function createCar(extra: Record<string, unknown> = {}): Promise<number> {
  const r = await cli(["vehicle", "create", "--from-file", carFile(extra), "-q"]);
  expect(r.code, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe("vehicle list", () => {
  it("prints a table with the useful columns and a footer on stderr", async () => {
    const r = await cli(["vehicle", "list"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ID\s+REG NUMBER\s+MODEL\s+CLASS\s+ACTIVE\s+PRICE\/DAY\s+LOCATION/);
    expect(r.stdout).toContain("B-SC 1001");
    expect(r.stderr).toMatch(/page 1 of 1 · \d+ of \d+ vehicles/);
    expect(r.stdout).not.toMatch(/page \d of/);
  });

  it("--page and --limit select a page; -q prints ids only", async () => {
    for (let i = 0; i < 4; i++) await createCar({ vehicle_reg_number: `P-${i}` });
    const all = json<Array<{ id: number }>>((await cli(["vehicle", "list", "--all", "-o", "json"])).stdout);
    const r = await cli(["vehicle", "list", "--limit", "2", "--page", "2", "-q"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n").map(Number)).toEqual(all.slice(2, 4).map((v) => v.id));
  });

  it("--all walks more than three pages, streams ndjson and never repeats a vehicle", async () => {
    for (let i = 0; i < 8; i++) await createCar({ vehicle_reg_number: `ALL-${i}` });
    const r = await cli(["vehicle", "list", "--all", "--limit", "2", "-o", "ndjson"]);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout
      .trim()
      .split("\n")
      .map((l) => json<{ id: number }>(l).id);
    expect(ids.length).toBeGreaterThanOrEqual(11);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("csv has a header row and one row per vehicle", async () => {
    const r = await cli(["vehicle", "list", "-o", "csv", "--fields", "id,vehicle_reg_number"]);
    const lines = r.stdout.trim().split("\r\n");
    expect(lines[0]).toBe("id,vehicle_reg_number");
    expect(lines.length).toBeGreaterThan(1);
  });
});

describe("vehicle get / create", () => {
  it("get prints one record; a missing id exits 5", async () => {
    const r = await cli(["vehicle", "get", "1", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(json<{ id: number; vehicle_reg_number: string }>(r.stdout)).toMatchObject({
      id: 1,
      vehicle_reg_number: "B-SC 1001",
    });
    const missing = await cli(["vehicle", "get", "999999"]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: not found \(404\)/m);
  });

  it("create from a file plus flags (flags win) prints the new id", async () => {
    const id = await createCar();
    const withFlag = await cli([
      "vehicle",
      "create",
      "--from-file",
      carFile(),
      "--reg",
      "FLAG-1",
      "--price-per-day",
      "77",
      "-q",
    ]);
    expect(withFlag.code, withFlag.stderr).toBe(0);
    const got = json<Record<string, unknown>>(
      (await cli(["vehicle", "get", withFlag.stdout.trim(), "-o", "json"])).stdout,
    );
    expect(got).toMatchObject({ vehicle_reg_number: "FLAG-1", price_per_day: 77, user_id: 1001 });
    expect(id).toBeGreaterThan(0);
  });

  it("lists every problem by field, exits 2 and sends nothing", async () => {
    const before = json<unknown[]>((await cli(["vehicle", "list", "--all", "-o", "json"])).stdout).length;
    const r = await cli([
      "vehicle",
      "create",
      "--from-file",
      carFile({
        vehicle_booking_lead_time: 4,
        vehicle_minimal_renting_period: 0,
        vehicle_description: "x".repeat(5001),
      }),
      "--vehicle-activity",
      "1",
      "--set",
      "vehicle_protection_plans_no_deposit=2",
    ]);
    expect(r.code).toBe(2);
    for (const f of [
      "vehicle_booking_lead_time",
      "vehicle_minimal_renting_period",
      "vehicle_description",
      "vehicle_protection_plans_no_deposit",
    ]) {
      expect(r.stderr).toContain(f);
    }
    const after = json<unknown[]>((await cli(["vehicle", "list", "--all", "-o", "json"])).stdout).length;
    expect(after).toBe(before);
  });

  it("names every missing required field", async () => {
    const r = await cli(["vehicle", "create", "--reg", "X-1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pickup_location: is required/);
    expect(r.stderr).toMatch(/vehicle_fuel_policy: is required/);
  });

  it("--dry-run prints the request and creates nothing", async () => {
    const r = await cli([
      "vehicle",
      "create",
      "--from-file",
      carFile({ vehicle_benefits_id: [1, 3] }),
      "--dry-run",
      "-o",
      "json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const req = json<{ method: string; body: string; headers: Record<string, string> }>(r.stdout);
    expect(req.method).toBe("POST");
    expect(req.body).toContain("vehicle_benefits_id[]=1&vehicle_benefits_id[]=3");
    expect(req.headers.authorization).toBe("Bearer ***");
  });
});

describe("vehicle edit", () => {
  it("keeps every other field (a naive edit would have cleared them)", async () => {
    const id = await createCar({ vehicle_description: "keep me", vehicle_benefits_id: [1, 2] });
    const r = await cli(["vehicle", "edit", String(id), "--price-per-day", "99"]);
    expect(r.code, r.stderr).toBe(0);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got).toMatchObject({
      price_per_day: 99,
      vehicle_description: "keep me",
      vehicle_benefits_id: [1, 2],
      pickup_location: "Berlin, Alexanderplatz 1",
    });
  });

  it("--replace sends exactly what was given (the sandbox clears the rest)", async () => {
    const id = await createCar({ vehicle_description: "gone after replace" });
    const r = await cli(["vehicle", "edit", String(id), "--replace", "--from-file", carFile(), "-y"]);
    expect(r.code, r.stderr).toBe(0);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.vehicle_description ?? null).toBeNull();
  });

  it("an empty --set clears an array field", async () => {
    const id = await createCar({ vehicle_benefits_id: [1, 2] });
    const r = await cli(["vehicle", "edit", String(id), "--set", "vehicle_benefits_id="]);
    expect(r.code, r.stderr).toBe(0);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.vehicle_benefits_id ?? []).toEqual([]);
  });

  it("--dry-run shows the field-by-field diff and changes nothing", async () => {
    const id = await createCar();
    const r = await cli(["vehicle", "edit", String(id), "--price-per-day", "61", "--dry-run", "-o", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ changes: unknown[] }>(r.stdout).changes).toEqual([{ field: "price_per_day", before: 45, after: 61 }]);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.price_per_day).toBe(45);
  });

  it("stops when the vehicle changed between the read and the write", async () => {
    const id = await createCar();
    // A client whose second read of the vehicle sees another writer's change.
    const { ApiClient } = await import("../../src/api/client.js");
    let gets = 0;
    const overrides = {
      client: (target: { baseUrl: string; apiKey?: string }) => {
        const real = new ApiClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: 5000 });
        const call = real.call.bind(real);
        real.call = async (op, params, extra) => {
          if (op === "vehicles.get" && ++gets === 2) {
            const other = new ApiClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: 5000 });
            const cur = await other.call("vehicles.get", { vehicle_id: id, locale_id: 40 });
            const rec = (cur.decoded.body as { data: Record<string, never> }).data;
            const { id: _i, created_at: _c, updated_at: _u, ...fields } = rec;
            await other.call(
              "vehicles.edit",
              { ...fields, vehicle_id: id, pickup_location: "Moved by someone else" },
              { grant: WRITE_GRANT },
            );
          }
          return call(op, params, extra);
        };
        return real;
      },
    };
    const r = await runMain(["vehicle", "edit", String(id), "--price-per-day", "70"], env, { overrides });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/changed while this edit was prepared; nothing was sent/);
    expect(r.stderr).toContain("pickup_location");
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got).toMatchObject({ price_per_day: 45, pickup_location: "Moved by someone else" });
  });

  it("activate and deactivate go through the safe edit", async () => {
    const id = await createCar({ vehicle_description: "still here" });
    expect((await cli(["vehicle", "deactivate", String(id)])).code).toBe(0);
    let got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got).toMatchObject({ vehicle_activity: 0, vehicle_description: "still here" });
    expect((await cli(["vehicle", "activate", String(id)])).code).toBe(0);
    got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.vehicle_activity).toBe(1);
  });
});

describe("vehicle remove and undo", () => {
  it("remove needs --yes without a TTY, then 404s; undo re-creates it with a new id", async () => {
    const id = await createCar({ vehicle_reg_number: "UNDO-RM" });
    const refused = await cli(["vehicle", "remove", String(id)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const r = await cli(["vehicle", "remove", String(id), "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect((await cli(["vehicle", "get", String(id)])).code).toBe(5);
    const ops = (await cli(["undo", "-q"])).stdout.trim().split("\n");
    const u = await cli(["undo", ops[0]!, "-q"]);
    expect(u.code, u.stderr).toBe(0);
    const newId = Number(u.stdout.trim());
    expect(newId).not.toBe(id);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(newId), "-o", "json"])).stdout);
    expect(got.vehicle_reg_number).toBe("UNDO-RM");
    expect((await cli(["undo", ops[0]!])).code).toBe(2); // already undone
  });

  it("undo of an edit restores the previous values", async () => {
    const id = await createCar();
    await cli(["vehicle", "edit", String(id), "--price-per-day", "120", "--vehicle-description", "changed"]);
    const op = (await cli(["undo", "-q"])).stdout.trim().split("\n")[0]!;
    const u = await cli(["undo", op]);
    expect(u.code, u.stderr).toBe(0);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.price_per_day).toBe(45);
    expect(got.vehicle_description ?? null).toBeNull();
  });

  it("another owner's vehicle is a 401 (exit 4)", async () => {
    const r = await runMain(["vehicle", "get", "1"], {
      ...env,
      RENTCTL_API_KEY: "sandbox-key-1002",
      RENTCTL_USER_ID: "1002",
    });
    expect(r.code).toBe(4);
  });
});

describe("image upload", () => {
  it('an answer with no image ids is unusable: exit 6, nothing attached, never "0 images uploaded"', async () => {
    const { createServer } = await import("node:http");
    // A proxy in front of the sandbox whose upload answer carries no ids.
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (req.url?.includes("/vehicles/upload")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ is_success: true, data: [] }));
        return;
      }
      const up = await fetch(`${ctx.sb.url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await up.arrayBuffer()));
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const port = (proxy.address() as { port: number }).port;
      const file = join(env.RENTCTL_DATA_DIR!, "..", "empty-answer.jpg");
      writeFileSync(file, Buffer.from([0xff, 0xd8, 0xff, 0]));
      const before = json<Record<string, unknown>>((await cli(["vehicle", "get", "1", "-o", "json"])).stdout);
      const r = await runMain(["image", "upload", file, "--attach", "1"], {
        ...env,
        RENTCTL_BASE_URL: `http://127.0.0.1:${port}`,
      });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/no image ids/);
      expect(r.stderr).not.toMatch(/0 images uploaded/);
      expect(r.stdout).toBe("");
      const after = json<Record<string, unknown>>((await cli(["vehicle", "get", "1", "-o", "json"])).stdout);
      expect(after.vehicle_images).toEqual(before.vehicle_images);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  it("uploads 12 files in two requests and attaches them through the safe edit", async () => {
    const dir = join(env.RENTCTL_DATA_DIR!, "..");
    const files = Array.from({ length: 12 }, (_, i) => {
      const f = join(dir, `img${i}.jpg`);
      writeFileSync(f, Buffer.from([0xff, 0xd8, 0xff, i]));
      return f;
    });
    const id = await createCar({ vehicle_description: "with photos" });
    const r = await cli(["image", "upload", ...files, "--attach", String(id), "-q", "-v"]);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trim().split("\n").map(Number);
    expect(ids).toHaveLength(12);
    expect(r.stderr.match(/→ POST \S+\/vehicles\/upload/g)).toHaveLength(2);
    const got = json<Record<string, unknown>>((await cli(["vehicle", "get", String(id), "-o", "json"])).stdout);
    expect(got.vehicle_images).toEqual(ids);
    expect(got.vehicle_description).toBe("with photos");
  });

  it("checks every file before sending anything", async () => {
    const r = await cli(["image", "upload", "/nonexistent/a.jpg", "/nonexistent/b.jpg", "-v"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/nonexistent/a.jpg: does not exist");
    expect(r.stderr).toContain("/nonexistent/b.jpg: does not exist");
    expect(r.stderr).not.toContain("→ POST");
  });

  it("a text file named .jpg is refused by its content, nothing sent (even with --attach); --any-type uploads it", async () => {
    const f = join(env.RENTCTL_DATA_DIR!, "..", "notes.jpg");
    writeFileSync(f, "not an image\n");
    const r = await cli(["image", "upload", f, "--attach", "1", "-v"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${f}: is no image by its content`);
    expect(r.stderr).toMatch(/--any-type/);
    expect(r.stderr).not.toMatch(/library|anyType/);
    expect(r.stderr).not.toMatch(/→ (POST|GET)/);
    const any = await cli(["image", "upload", f, "--any-type", "-q"]);
    expect(any.code, any.stderr).toBe(0);
    expect(any.stdout.trim()).toMatch(/^\d+$/);
  });
});

describe("the built CLI, spawned", () => {
  it("lists vehicles as JSON in a script (no TTY) with nothing but the result on stdout", async () => {
    const r = await runBuilt(["vehicle", "list", "-o", "json"], env);
    expect(r.code, r.stderr).toBe(0);
    const items = json<Array<{ id: number }>>(r.stdout);
    expect(items.length).toBeGreaterThan(0);
  });

  it("creates, edits and removes through the real process and exit codes", async () => {
    const created = await runBuilt(["vehicle", "create", "--from-file", carFile(), "-q"], env);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect((await runBuilt(["vehicle", "edit", id, "--price", "50", "-q"], env)).code).toBe(0);
    expect((await runBuilt(["vehicle", "remove", id, "-y", "-q"], env)).stdout.trim()).toBe(id);
    expect((await runBuilt(["vehicle", "get", id], env)).code).toBe(5);
  });
});
