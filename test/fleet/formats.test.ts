import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { IdentityIndex, identityOf } from "../../src/contract/identity.js";
import { didYouMean, mapRow } from "../../src/files/fields.js";
import { type FleetFormat, formatFor } from "../../src/files/format.js";
import { readRows } from "../../src/files/read.js";
import { createRecordWriter } from "../../src/files/write.js";

const dir = mkdtempSync(join(tmpdir(), "fleet-fmt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = [
  {
    vehicle_reg_number: "AB-1",
    price_per_day: 50,
    vehicle_description: 'says "hi", then\nnew line',
    vehicle_benefits_id: [1, 2],
  },
  { vehicle_reg_number: "AB-2", price_per_day: 60 },
];
const COLS = ["vehicle_reg_number", "price_per_day", "vehicle_description", "vehicle_benefits_id"];

async function writeAll(format: FleetFormat): Promise<string> {
  const out = new PassThrough();
  let text = "";
  out.on("data", (d) => {
    text += d;
  });
  const w = await createRecordWriter(format, out, COLS);
  for (const r of ROWS) await w.write(r);
  await w.end();
  return text;
}

async function readAll(path: string, format: FleetFormat) {
  const rows = [];
  for await (const r of readRows(path, format)) rows.push({ ...r, ...mapRow(r.data) });
  return rows;
}

describe("fleet formats", () => {
  for (const format of ["json", "ndjson", "yaml", "csv"] as const) {
    it(`${format}: what the writer writes, the reader reads back`, async () => {
      const path = join(dir, `rt.${format}`);
      writeFileSync(path, await writeAll(format));
      expect(formatFor(path)).toBe(format);
      const rows = await readAll(path, format);
      expect(rows.map((r) => r.row)).toEqual([1, 2]);
      expect(rows[0]!.values.vehicle_reg_number).toBe("AB-1");
      expect(String(rows[0]!.values.price_per_day)).toBe("50");
      expect(rows[0]!.values.vehicle_description).toBe('says "hi", then\nnew line');
      expect((rows[0]!.values.vehicle_benefits_id as unknown[]).map(String)).toEqual(["1", "2"]);
      expect(rows[1]!.values.vehicle_description).toBeUndefined(); // empty cell = absent
      expect(rows.every((r) => r.problems.length === 0)).toBe(true);
    });
  }

  it("csv: BOM, CRLF, quoted commas and newlines, | arrays, kebab names, images", async () => {
    const path = join(dir, "edge.csv");
    writeFileSync(
      path,
      '\uFEFFvehicle-reg-number,pickup_location,vehicle_benefits_id,images\r\n"X 1","Berlin, Mitte\r\nHof 2",1|3,a.jpg|b.png\r\nX2,,,\r\n',
    );
    const rows = await readAll(path, "csv");
    expect(rows).toHaveLength(2);
    expect(rows[0]!.values).toEqual({
      vehicle_reg_number: "X 1",
      pickup_location: "Berlin, Mitte\r\nHof 2",
      vehicle_benefits_id: ["1", "3"],
    });
    expect(rows[0]!.images).toEqual(["a.jpg", "b.png"]);
    expect(rows[1]!.values).toEqual({ vehicle_reg_number: "X2" });
  });

  it("csv: whitespace at either end of a value survives a round trip (quoted); unquoted cells are trimmed", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (d) => {
      text += d;
    });
    const w = await createRecordWriter("csv", out, COLS);
    await w.write({ vehicle_reg_number: "AB-1", price_per_day: 50, vehicle_description: " lead and trail " });
    await w.end();
    const path = join(dir, "space.csv");
    writeFileSync(path, text);
    expect((await readAll(path, "csv"))[0]!.values.vehicle_description).toBe(" lead and trail ");
    writeFileSync(path, "vehicle_reg_number,price_per_day,pickup_location\n  AB-1 ,  50 , Berlin \n");
    expect((await readAll(path, "csv"))[0]!.values).toEqual({
      vehicle_reg_number: "AB-1",
      price_per_day: "50",
      pickup_location: "Berlin",
    });
  });

  it("unknown keys are problems with a did-you-mean hint; ids and timestamps are ignored", () => {
    const m = mapRow({ price_per_dya: 5, id: 7, vehicle_id: 7, created_at: "x", "price-per-week": 3 });
    expect(m.problems).toEqual([{ field: "price_per_dya", message: "unknown key (did you mean price_per_day?)" }]);
    expect(m.values).toEqual({ price_per_week: 3 });
    expect(didYouMean("zzzzzzzzzzzz")).toBeUndefined();
  });

  it("yaml accepts a vehicles: document; stdin needs --format", async () => {
    const path = join(dir, "doc.yaml");
    writeFileSync(path, "vehicles:\n  - vehicle_reg_number: Y1\n  - vehicle_reg_number: Y2\n");
    expect((await readAll(path, "yaml")).map((r) => r.values.vehicle_reg_number)).toEqual(["Y1", "Y2"]);
    expect(() => formatFor("-")).toThrow(/--format/);
    expect(formatFor("-", undefined, "ndjson")).toBe("ndjson");
    expect(formatFor("x.txt", "csv")).toBe("csv");
  });

  it("identity: trimmed, case-insensitive, country when given", () => {
    const idx = new IdentityIndex<number>();
    idx.add(identityOf({ vehicle_reg_number: " ab-1 ", vehicle_reg_number_country: 1 })!, 10);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1" })!)).toEqual([10]);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1", vehicle_reg_number_country: 1 })!)).toEqual([10]);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1", vehicle_reg_number_country: 2 })!)).toEqual([]);
    expect(identityOf({ vehicle_reg_number: "  " })).toBeUndefined();
    // several vehicles with one registration number, in other countries or none
    idx.add(identityOf({ vehicle_reg_number: "AB-1", vehicle_reg_number_country: 2 })!, 20);
    idx.add(identityOf({ vehicle_reg_number: "ab-1" })!, 30);
    idx.add(identityOf({ vehicle_reg_number: "CD-2", vehicle_reg_number_country: 2 })!, 40);
    expect(idx.size).toBe(4);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1" })!)).toEqual([10, 20, 30]);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1", vehicle_reg_number_country: 2 })!)).toEqual([20, 30]);
    expect(idx.find(identityOf({ vehicle_reg_number: "AB-1", vehicle_reg_number_country: 3 })!)).toEqual([30]);
    expect(idx.find(identityOf({ vehicle_reg_number: "cd-2", vehicle_reg_number_country: 1 })!)).toEqual([]);
  });

  it("a malformed file is an input error naming the line", async () => {
    const path = join(dir, "bad.ndjson");
    writeFileSync(path, '{"vehicle_reg_number":"A"}\n{oops\n');
    await expect(readAll(path, "ndjson")).rejects.toThrow(/line 2/);
    expect(readFileSync(path, "utf8")).toContain("oops");
  });
});
