import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { IO } from "../../src/base/io.js";
import type { Format } from "../../src/config/settings.js";
import type { JsonObject } from "../../src/contract/records.js";
import { colorEnabled, makeChalk } from "../../src/output/color.js";
import { loadCsv } from "../../src/output/csv.js";
import {
  type Column,
  createListWriter,
  getPath,
  pickFields,
  type RenderOptions,
  renderIds,
  renderList,
  renderRecord,
} from "../../src/output/render.js";
import { cellText, renderKeyValue, renderTable } from "../../src/output/table.js";

/** A stdout that records every chunk; `full` makes write() report back-pressure until `drain`. */
class FakeStdout extends EventEmitter {
  chunks: string[] = [];
  full = false;
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return !this.full;
  }
  get text(): string {
    return this.chunks.join("");
  }
}

function fakeIO(): { io: IO; out: FakeStdout; err: FakeStdout } {
  const out = new FakeStdout();
  const err = new FakeStdout();
  const io = {
    stdout: out as unknown as NodeJS.WritableStream,
    stderr: err as unknown as NodeJS.WritableStream,
    stdin: new EventEmitter() as unknown as NodeJS.ReadableStream,
    stdoutTTY: false,
    stderrTTY: false,
    stdinTTY: false,
  };
  return { io, out, err };
}

function opts(format: Format, extra: Partial<RenderOptions> = {}) {
  const f = fakeIO();
  const o: RenderOptions = { format, color: makeChalk(false), io: f.io, ...extra };
  return { ...f, o };
}

const VEHICLES: JsonObject[] = [
  { id: 1, vehicle_reg_number: "AB-123", price_per_day: 50, model: { name: "Golf", brand: { name: "VW" } } },
  { id: 2, vehicle_reg_number: 'CD 456, "x"', price_per_day: 0, model: { name: "Polo", brand: { name: "VW" } } },
];

/** Parse CSV (RFC 4180) for assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe("json", () => {
  it("a list prints one array of the items", async () => {
    const { o, out } = opts("json");
    await renderList(VEHICLES, o);
    expect(JSON.parse(out.text)).toEqual(VEHICLES);
    expect(out.text.endsWith("\n")).toBe(true);
  });

  it("an empty list prints []", async () => {
    const { o, out } = opts("json");
    await renderList([], o);
    expect(JSON.parse(out.text)).toEqual([]);
  });

  it("a list fed in several pushes streams one array: the same text as printed at once", async () => {
    const { o, out } = opts("json");
    const w = createListWriter(o);
    await w.push([VEHICLES[0]!]);
    expect(out.text.startsWith("[\n")).toBe(true);
    await w.push([VEHICLES[1]!]);
    await w.end();
    expect(out.text).toBe(`${JSON.stringify(VEHICLES, null, 2)}\n`);
  });

  it("yaml streams one sequence item per record: the same text as printed at once", async () => {
    const { o, out } = opts("yaml");
    const w = createListWriter(o);
    await w.push([VEHICLES[0]!]);
    await w.push([VEHICLES[1]!]);
    await w.end();
    const whole = opts("yaml");
    const { stringify } = await import("yaml");
    expect(out.text).toBe(stringify(VEHICLES));
    await renderList([], whole.o);
    expect(whole.out.text).toBe("[]\n");
  });

  it("a single record prints the object", async () => {
    const { o, out } = opts("json");
    await renderRecord(VEHICLES[0]!, o);
    expect(JSON.parse(out.text)).toEqual(VEHICLES[0]);
  });

  it("--fields selects and orders keys, with dotted paths and null for missing", async () => {
    const { o, out } = opts("json", { fields: ["price_per_day", "model.brand.name", "id", "model.nope"] });
    await renderList(VEHICLES, o);
    const parsed = JSON.parse(out.text);
    expect(parsed).toEqual([
      { price_per_day: 50, "model.brand.name": "VW", id: 1, "model.nope": null },
      { price_per_day: 0, "model.brand.name": "VW", id: 2, "model.nope": null },
    ]);
    expect(Object.keys(parsed[0])).toEqual(["price_per_day", "model.brand.name", "id", "model.nope"]);
  });

  it("--fields: an unknown name is a usage error listing the valid ones; a header selects its column", async () => {
    const bad = opts("json", { fields: ["id", "nope"] });
    await expect(renderList(VEHICLES, bad.o)).rejects.toThrow(/unknown field nope/);
    expect(bad.out.text).toBe("");
    const byHeader = opts("json", { fields: ["price/day"], columns: [{ key: "price_per_day", header: "PRICE/DAY" }] });
    await renderList(VEHICLES, byHeader.o);
    expect(JSON.parse(byHeader.out.text)).toEqual([{ price_per_day: 50 }, { price_per_day: 0 }]);
  });

  it("--fields applies to a single record too", async () => {
    const { o, out } = opts("json", { fields: ["id"] });
    await renderRecord(VEHICLES[0]!, o);
    expect(JSON.parse(out.text)).toEqual({ id: 1 });
  });

  it("raw non-object bodies print as JSON", async () => {
    const { o, out } = opts("json");
    await renderRecord([1, 2], o);
    expect(JSON.parse(out.text)).toEqual([1, 2]);
  });
});

describe("ndjson streams per push", () => {
  it("prints each push's rows at once, one JSON object per line", async () => {
    const { o, out } = opts("ndjson");
    const w = createListWriter(o);
    await w.push([VEHICLES[0]!]);
    expect(out.text).toBe(`${JSON.stringify(VEHICLES[0])}\n`);
    await w.push([VEHICLES[1]!]);
    expect(out.chunks).toHaveLength(2);
    await w.end();
    expect(
      out.text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(VEHICLES);
  });

  it("applies --fields per line", async () => {
    const { o, out } = opts("ndjson", { fields: ["id", "model.name"] });
    await renderList(VEHICLES, o);
    expect(out.text).toBe('{"id":1,"model.name":"Golf"}\n{"id":2,"model.name":"Polo"}\n');
  });

  it("a record is one line", async () => {
    const { o, out } = opts("ndjson");
    await renderRecord({ a: 1 }, o);
    expect(out.text).toBe('{"a":1}\n');
  });

  it("waits for drain when stdout reports back-pressure", async () => {
    const { o, out } = opts("ndjson");
    out.full = true;
    const w = createListWriter(o);
    let done = false;
    const p = w.push([{ id: 1 }]).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(out.chunks).toHaveLength(1);
    expect(done).toBe(false);
    out.emit("drain");
    await p;
    expect(done).toBe(true);
  });
});

describe("csv", () => {
  it("streams: the header and first rows appear after the first push, before end", async () => {
    const { o, out } = opts("csv", { fields: ["id", "vehicle_reg_number"] });
    const w = createListWriter(o);
    await w.push([VEHICLES[0]!]);
    expect(out.text).toBe("id,vehicle_reg_number\r\n1,AB-123\r\n");
    await w.push([VEHICLES[1]!]);
    expect(out.chunks).toHaveLength(2);
    await w.end();
    expect(parseCsv(out.text)).toEqual([
      ["id", "vehicle_reg_number"],
      ["1", "AB-123"],
      ["2", 'CD 456, "x"'],
    ]);
  });

  it("without --fields uses the given columns, else the keys of the first page", async () => {
    const a = opts("csv", { columns: [{ key: "price_per_day" }, { key: "id" }] });
    await renderList(VEHICLES, a.o);
    expect(parseCsv(a.out.text)).toEqual([
      ["price_per_day", "id"],
      ["50", "1"],
      ["0", "2"],
    ]);
    const b = opts("csv");
    await renderList([{ x: 1, y: [1, 2] }], b.o);
    expect(parseCsv(b.out.text)).toEqual([
      ["x", "y"],
      ["1", "1|2"],
    ]);
  });

  it("an empty list with known columns still prints the header", async () => {
    const { o, out } = opts("csv", { fields: ["id", "price_per_day"] });
    await renderList([], o);
    expect(out.text).toBe("id,price_per_day\r\n");
  });

  it("a record prints a header row and a value row", async () => {
    const { o, out } = opts("csv");
    await renderRecord({ id: 3, note: "a,b" }, o);
    expect(out.text).toBe('id,note\r\n3,"a,b"\r\n');
  });

  it("csvCell quotes commas, quotes, CR, LF and edge whitespace only", async () => {
    const csvCell = (await loadCsv()).cell;
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell("cr\r")).toBe('"cr\r"');
    expect(csvCell(" padded ")).toBe('" padded "');
    expect(csvCell("in side")).toBe("in side");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(false)).toBe("false");
    expect(csvCell([1, "a"])).toBe("1|a");
    expect(csvCell({ a: 1, b: 2 })).toBe('"{""a"":1,""b"":2}"');
    expect(csvCell("Zürich")).toBe("Zürich");
  });

  it("csvRow ends with CRLF", async () => {
    const csvRow = (await loadCsv()).row;
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });
});

describe("yaml", () => {
  it("a list prints a YAML sequence of the items", async () => {
    const { o, out } = opts("yaml");
    await renderList(VEHICLES, o);
    expect(parseYaml(out.text)).toEqual(VEHICLES);
  });

  it("an empty list prints []", async () => {
    const { o, out } = opts("yaml");
    await renderList([], o);
    expect(out.text).toBe("[]\n");
  });

  it("a record prints a mapping, --fields applied", async () => {
    const { o, out } = opts("yaml", { fields: ["vehicle_reg_number", "model.name"] });
    await renderRecord(VEHICLES[1]!, o);
    expect(parseYaml(out.text)).toEqual({ vehicle_reg_number: 'CD 456, "x"', "model.name": "Polo" });
  });
});

describe("table", () => {
  const columns: Column[] = [{ key: "id" }, { key: "vehicle_reg_number", header: "REG" }, { key: "model.name" }];

  it("prints headers and values (uppercased keys or given headers), no colour codes when off", async () => {
    const { o, out } = opts("table", { columns });
    await renderList(VEHICLES, o);
    const lines = out.text.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+REG\s+MODEL\.NAME$/);
    expect(lines[1]).toMatch(/^1\s+AB-123\s+Golf$/);
    expect(lines[2]).toMatch(/^2\s+CD 456, "x"\s+Polo$/);
    expect(out.text).not.toMatch(/\x1b\[/);
  });

  it("--fields overrides the default columns", async () => {
    const { o, out } = opts("table", { columns, fields: ["price_per_day"] });
    await renderList(VEHICLES, o);
    expect(out.text.trimEnd().split("\n")).toEqual(["PRICE_PER_DAY", "50", "0"]);
  });

  it("prints nothing for an empty list (the footer says so on stderr)", async () => {
    const { o, out } = opts("table", { columns });
    await renderList([], o);
    expect(out.text).toBe("");
  });

  it("bold headers when colour is on", () => {
    const { o } = opts("table", { color: makeChalk(true) });
    const text = renderTable([{ id: 1 }], [{ key: "id" }], o);
    expect(text).toContain("\x1b[1mID\x1b[22m");
  });

  it("clips long cells and flattens newlines", () => {
    const { o } = opts("table");
    const text = renderTable([{ d: `${"x".repeat(100)}` }, { d: "a\nb" }], [{ key: "d" }], o);
    const lines = text.trimEnd().split("\n");
    expect(lines[1]).toBe(`${"x".repeat(59)}…`);
    expect(lines[2]).toBe("a b");
  });

  it("a record prints as key / value lines", async () => {
    const { o, out } = opts("table");
    await renderRecord({ id: 7, tags: ["a", "b"], model: { name: "Golf" }, none: null }, o);
    const lines = out.text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^id\s+7$/);
    expect(lines[1]).toMatch(/^tags\s+a, b$/);
    expect(lines[2]).toMatch(/^model\.name\s+Golf$/);
    expect(lines[3]).toBe("none");
  });

  it("renderKeyValue clips very long values", () => {
    const { o } = opts("table");
    const text = renderKeyValue({ d: "y".repeat(500) }, o);
    expect(text).toContain(`${"y".repeat(199)}…`);
    expect(text).not.toContain("y".repeat(200));
  });

  it("cellText", () => {
    expect(cellText(undefined)).toBe("");
    expect(cellText(null)).toBe("");
    expect(cellText([1, { a: 1 }])).toBe('1, {"a":1}');
    expect(cellText(true)).toBe("true");
  });
});

describe("pickFields / getPath", () => {
  it("reads dotted paths, preferring a literal key with a dot", () => {
    const item = { "a.b": 1, a: { b: 2, c: { d: [3] } } };
    expect(getPath(item, "a.b")).toBe(1);
    expect(getPath(item, "a.c.d")).toEqual([3]);
    expect(getPath(item, "a.x.y")).toBeUndefined();
    expect(getPath({ a: [1] }, "a.0")).toBeUndefined();
  });

  it("never reads inherited members such as constructor or toString", () => {
    expect(getPath({ id: 1 }, "constructor")).toBeUndefined();
    expect(getPath({ a: {} }, "a.toString")).toBeUndefined();
    expect(pickFields({ id: 1 }, ["toString", "id"])).toEqual({ toString: null, id: 1 });
  });

  it("no fields returns the item itself", () => {
    const item = { z: 1 };
    expect(pickFields(item, undefined)).toBe(item);
  });
});

describe("renderIds", () => {
  it("prints one id per line and nothing for none", async () => {
    const a = fakeIO();
    await renderIds(a.io, [3, "7"]);
    expect(a.out.text).toBe("3\n7\n");
    const b = fakeIO();
    await renderIds(b.io, []);
    expect(b.out.chunks).toEqual([]);
  });
});

describe("colour decision", () => {
  it("on for a TTY, off for a pipe by default", () => {
    expect(colorEnabled(undefined, {}, true)).toBe(true);
    expect(colorEnabled(true, {}, true)).toBe(true);
    expect(colorEnabled(undefined, {}, false)).toBe(false);
  });

  it("--no-color wins over everything", () => {
    expect(colorEnabled(false, {}, true)).toBe(false);
    expect(colorEnabled(false, { FORCE_COLOR: "1" }, true)).toBe(false);
  });

  it("NO_COLOR with any non-empty value turns it off, even with FORCE_COLOR", () => {
    expect(colorEnabled(undefined, { NO_COLOR: "1" }, true)).toBe(false);
    expect(colorEnabled(undefined, { NO_COLOR: "0" }, true)).toBe(false);
    expect(colorEnabled(undefined, { NO_COLOR: "1", FORCE_COLOR: "1" }, true)).toBe(false);
    // an empty NO_COLOR is ignored (no-color.org)
    expect(colorEnabled(undefined, { NO_COLOR: "" }, true)).toBe(true);
  });

  it("FORCE_COLOR turns it on without a TTY, except 0 or false", () => {
    expect(colorEnabled(undefined, { FORCE_COLOR: "1" }, false)).toBe(true);
    expect(colorEnabled(undefined, { FORCE_COLOR: "" }, false)).toBe(true);
    expect(colorEnabled(undefined, { FORCE_COLOR: "0" }, true)).toBe(false);
    expect(colorEnabled(undefined, { FORCE_COLOR: "false" }, true)).toBe(false);
  });

  it("makeChalk emits codes only when enabled", () => {
    expect(makeChalk(true).red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(makeChalk(false).red("x")).toBe("x");
  });
});
