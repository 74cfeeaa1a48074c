import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/base/errors.js";
import type { FleetFormat } from "../../src/files/format.js";
import { MAX_DEPTH, MAX_ROW_BYTES } from "../../src/files/input-limits.js";
import { readRows } from "../../src/files/read.js";

/**
 * Hostile and broken fleet files (issue "Hostile input"): each is refused as
 * an InputError (exit 2) naming the row or line, never a stack overflow, a
 * RangeError, or data silently changed (last duplicate wins, U+FFFD sent).
 */
const dir = mkdtempSync(join(tmpdir(), "rentctl-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(content: string | Buffer, ext: string): string {
  const p = join(dir, `f${n++}.${ext}`);
  writeFileSync(p, content);
  return p;
}

async function read(path: string, format: FleetFormat) {
  const rows: unknown[] = [];
  for await (const r of readRows(path, format)) rows.push(r.data);
  return rows;
}

async function refused(path: string, format: FleetFormat): Promise<string> {
  const e = await read(path, format).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, "refused").toBeInstanceOf(InputError);
  return (e as Error).message;
}

describe("hostile fleet files", () => {
  it("JSON nested 100,000 deep: refused naming the row, no stack overflow (json and ndjson)", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(await refused(file(`[{"vehicle_reg_number":"A"}, {"x": ${deep}}]`, "json"), "json")).toMatch(
      new RegExp(`row 2: nesting deeper than ${MAX_DEPTH} levels`),
    );
    expect(await refused(file(`{"a":1}\n{"x": ${deep}}\n`, "ndjson"), "ndjson")).toMatch(/line 2: nesting deeper/);
  });

  it("a member named twice in one object: refused (JSON.parse would keep the last silently)", async () => {
    expect(await refused(file('[{"price_per_day": 1, "price_per_day": 2}]', "json"), "json")).toMatch(
      /row 1: member "price_per_day" is given twice/,
    );
    expect(await refused(file('{"a":1}\n{"b":1,"\\u0062":2}\n', "ndjson"), "ndjson")).toMatch(/line 2: member "b"/);
    // the same name in two objects (two rows, or nested) is fine
    expect(await read(file('[{"a":{"a":1}},{"a":2}]', "json"), "json")).toHaveLength(2);
  });

  it("a duplicate csv column: refused naming it", async () => {
    expect(await refused(file("vehicle_reg_number,price_per_day,price_per_day\nA,1,2\n", "csv"), "csv")).toMatch(
      /column "price_per_day" appears twice/,
    );
  });

  it("invalid UTF-8 and NUL bytes: refused naming the line, in every format", async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"ok"}\n{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    expect(await refused(file(bad, "ndjson"), "ndjson")).toMatch(/line 2 is not valid UTF-8/);
    expect(
      await refused(
        file(Buffer.concat([Buffer.from("a,b\n1,"), Buffer.from([0xff]), Buffer.from("\n")]), "csv"),
        "csv",
      ),
    ).toMatch(/line 2 is not valid UTF-8/);
    expect(await refused(file(Buffer.concat([Buffer.from("- a: "), Buffer.from([0xfe])]), "yaml"), "yaml")).toMatch(
      /not valid UTF-8/,
    );
    expect(await refused(file("a,b\n1,x\u0000y\n", "csv"), "csv")).toMatch(/line 2 holds a NUL byte/);
    expect(await refused(file("- a: x\u0000\n", "yaml"), "yaml")).toMatch(/NUL byte/);
  });

  it("a row larger than 1 MiB: refused as soon as it is, memory bounded (ndjson, csv)", async () => {
    const big = "x".repeat(MAX_ROW_BYTES + 10);
    expect(await refused(file(`{"a":1}\n{"a":"${big}"}\n`, "ndjson"), "ndjson")).toMatch(
      /row 2 is larger than the limit \(1 MiB per row\)/,
    );
    expect(await refused(file(`a,b\n1,${big}\n`, "csv"), "csv")).toMatch(/row 1 is larger than the limit/);
  });

  it("long lines under the limit are read whole, across many chunks", async () => {
    const long = "y".repeat(MAX_ROW_BYTES - 100);
    const rows = await read(file(`{"a":"${long}"}\n{"b":2}`, "ndjson"), "ndjson");
    expect(rows).toEqual([{ a: long }, { b: 2 }]);
  });

  it("a missing file is an error of the read, not a hang", async () => {
    await expect(read(join(dir, "missing.ndjson"), "ndjson")).rejects.toThrow(/ENOENT|no such file/);
    await expect(read(join(dir, "missing.csv"), "csv")).rejects.toThrow();
  });
});
