import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { readRows } from "../../src/files/read.js";
import { createRecordWriter } from "../../src/files/write.js";
import { guardCell, loadCsv, unguardCell } from "../../src/output/csv.js";

/**
 * CSV injection: a text cell a spreadsheet would run as a formula is written
 * with one `'` before it; numbers stay numbers; fleet files read back exactly.
 */

const dir = mkdtempSync(join(tmpdir(), "csv-guard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = ['=HYPERLINK("http://x")', "+cmd", "-2+3", "@SUM(A1)", "\tlead tab", "\r=x", "'=already", "''@two"];

describe("csv formula guard", () => {
  it("prefixes formula-looking text cells with one quote in every csv row", async () => {
    const { row } = await loadCsv();
    expect(row(["=1+2", "@x", "+a", "-a", "ok"], "\n")).toBe("'=1+2,'@x,'+a,'-a,ok\n");
    expect(row(["\tx"], "")).toBe("'\tx");
    // a CR is quoted as RFC 4180 says, guarded inside the quotes
    expect(row(["\r=x"], "")).toBe('"\'\r=x"');
  });

  it("leaves numbers alone, typed or as text: -5, +10%, 1.5e3, and plain text", async () => {
    const { row } = await loadCsv();
    expect(row([-5, "-5", "+10%", "-10%", "+5", "1.5e3", "-0.5", "B-SC 1001", "a=b"], "")).toBe(
      "-5,-5,+10%,-10%,+5,1.5e3,-0.5,B-SC 1001,a=b",
    );
  });

  it("unguardCell is the exact inverse of guardCell", () => {
    for (const v of [...HOSTILE, "-5", "'-5", "'", "''", "plain", "'quoted", ""])
      expect(unguardCell(guardCell(v))).toBe(v);
    expect(guardCell("'=already")).toBe("''=already");
    expect(guardCell("'quoted")).toBe("'quoted");
  });

  it("a fleet csv with hostile values reads back exactly as written", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (d) => {
      text += d;
    });
    const cols = ["vehicle_reg_number", "vehicle_description", "price_per_day"];
    const w = await createRecordWriter("csv", out, cols);
    for (const [i, v] of HOSTILE.entries())
      await w.write({ vehicle_reg_number: `R-${i}`, vehicle_description: v, price_per_day: -5 });
    await w.end();
    for (const line of text.split("\n").slice(1, -1)) expect(line).not.toMatch(/,[=+@\t]/);
    const path = join(dir, "fleet.csv");
    writeFileSync(path, text);
    const back: unknown[] = [];
    for await (const r of readRows(path, "csv")) back.push(r.data.vehicle_description);
    expect(back).toEqual(HOSTILE);
  });
});
