import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INCOMPLETE_LINE } from "../../src/output/output.js";
import { runMain, tempHome } from "../helpers/cli.js";

// --all streams every format; the streamed text is the text a single page
// would print, and a failure half-way leaves nothing that looks complete.

const FLEET = Array.from({ length: 7 }, (_, i) => ({
  id: i + 1,
  vehicle_reg_number: `AB-${i + 1}`,
  price_per_day: 40 + i,
  vehicle_benefits_id: [1, i],
  note: i === 3 ? 'quoted, "comma"' : null,
}));

let server: Server;
let base = "";
let failFrom = Number.POSITIVE_INFINITY;
let home: ReturnType<typeof tempHome>;

beforeAll(async () => {
  home = tempHome();
  server = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    const offset = Number(q.get("offset") ?? 0);
    const limit = Number(q.get("limit") ?? 15);
    if (offset >= failFrom) {
      res.writeHead(500, { "content-type": "application/json" });
      return res.end('{"message":"boom"}');
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: FLEET.slice(offset, offset + limit), total: FLEET.length, per_page: limit }));
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

describe("vehicle list --all streams", () => {
  for (const format of ["json", "yaml", "ndjson", "csv", "table"]) {
    it(`-o ${format}: three pages print the same text as one page`, async () => {
      failFrom = Number.POSITIVE_INFINITY;
      const paged = await runMain(["vehicle", "list", "--all", "--limit", "3", "-o", format], env());
      const whole = await runMain(["vehicle", "list", "--limit", "100", "-o", format], env());
      expect(paged.code).toBe(0);
      expect(whole.code).toBe(0);
      expect(paged.stdout.length).toBeGreaterThan(0);
      expect(paged.stdout).toBe(whole.stdout);
    });
  }

  it("-o json: the server fails on page 2 → exit 6 and stdout is no complete document (the array stays open)", async () => {
    failFrom = 3;
    const r = await runMain(["vehicle", "list", "--all", "--limit", "3", "-o", "json"], env());
    expect(r.code).toBe(6);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect(JSON.parse(`${r.stdout}]`)).toEqual(FLEET.slice(0, 3));
    expect(JSON.parse(r.stderr).error.exit_code).toBe(6);
  }, 60_000);

  for (const format of ["ndjson", "csv", "yaml"])
    it(`-o ${format}: the server fails on page 2 → exit 6 and the output ends with the %INCOMPLETE line`, async () => {
      failFrom = 3;
      const r = await runMain(["vehicle", "list", "--all", "--limit", "3", "-o", format], env());
      expect(r.code).toBe(6);
      expect(r.stdout.endsWith(INCOMPLETE_LINE)).toBe(true);
      if (format === "ndjson")
        expect(
          r.stdout
            .split("\n")
            .filter((l) => l.startsWith("{"))
            .map((l) => JSON.parse(l)),
        ).toEqual(FLEET.slice(0, 3));
    }, 60_000);
});
