import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, tempHome } from "../helpers/cli.js";

// Issue 16 item 1: the contract does not show the extra record, so safe
// update sends the server's record back as the server names it (period_id,
// not period), with the user's change applied through the declared alias.

let server: Server;
let base = "";
let record: Record<string, unknown> = {};
const updates: URLSearchParams[] = [];
let home: ReturnType<typeof tempHome>;

beforeAll(async () => {
  home = tempHome();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.startsWith("/api/v302/vehicles/extras/list/id"))
        return res.end(JSON.stringify({ is_success: true, data: record }));
      if (req.url?.startsWith("/api/v302/vehicles/extras/update")) {
        updates.push(new URLSearchParams(Buffer.concat(chunks).toString()));
        return res.end(JSON.stringify({ is_success: true, data: record }));
      }
      res.statusCode = 404;
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  home.cleanup();
});
const env = () => ({
  ...home.env,
  RENTCTL_API_KEY: "k",
  RENTCTL_BASE_URL: base,
  RENTCTL_ENV: "test",
  RENTCTL_USER_ID: "5",
});

describe("extra update mirrors the server's record", () => {
  it("--period sets period_id when that is the record's name; every scalar member is carried", async () => {
    record = {
      id: 7,
      option_id: 1,
      price: 10,
      currency_id: 1,
      period_id: 2,
      quantity: 3,
      is_active: 1,
      label: "Child seat",
    };
    updates.length = 0;
    const r = await runMain(["extra", "update", "7", "--period", "1", "--price", "12"], env());
    expect(r.code, r.stderr).toBe(0);
    expect(updates).toHaveLength(1);
    const body = Object.fromEntries(updates[0]!);
    expect(body).toMatchObject({
      extra_id: "7",
      option_id: "1",
      price: "12",
      currency_id: "1",
      period_id: "1",
      quantity: "3",
      is_active: "1",
      label: "Child seat",
    });
    expect(body).not.toHaveProperty("period");
    expect(body).not.toHaveProperty("id");
  });

  it("a member the contract requires and the record lacks is refused, naming it and --set; nothing sent", async () => {
    record = { id: 8, option_id: 1, price: 10, currency_id: 1, period: 2 };
    updates.length = 0;
    const r = await runMain(["extra", "update", "8", "--price", "11"], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("quantity");
    expect(r.stderr).toContain("--set quantity=VALUE");
    expect(updates).toHaveLength(0);
    const ok = await runMain(["extra", "update", "8", "--price", "11", "--set", "quantity=4"], env());
    expect(ok.code, ok.stderr).toBe(0);
    expect(Object.fromEntries(updates[0]!)).toMatchObject({ quantity: "4", period: "2", price: "11" });
  });
});
