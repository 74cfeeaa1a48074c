import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseSectioned, readAccountDocument } from "../../src/account/file.js";
import { ROOT } from "../helpers/cli.js";

/** The item-by-item yaml reading of account files gives exactly what a whole-document parse gives, or steps aside. */

describe("parseSectioned", () => {
  it("equals a whole parse on the export layout (comments, block scalars, nested lists, empty sections)", () => {
    const text = [
      "# yaml-language-server: $schema=rentctl-account.schema.json",
      "extras:",
      "- option: Child seat",
      "  price: 5",
      "  active: on",
      "# a comment between items",
      "- {option: 4, period: 2}",
      "vehicles:",
      "- vehicle_reg_number: B-SC 1001",
      "  vehicle_description: |",
      "    two lines",
      "",
      "    - not an item",
      "  extras:",
      "    - Child seat",
      "    - {option: 4, period: 2}",
      "- vehicle_reg_number: '- x'",
      "",
    ].join("\n");
    expect(parseSectioned(text, parse)).toEqual(parse(text));
    expect(parseSectioned("extras:\n  []\nvehicles:\n  []\n", parse)).toBeUndefined();
    const ex = readFileSync(join(ROOT, "examples", "account.yaml"), "utf8");
    const got = parseSectioned(ex, parse);
    expect(got === undefined || JSON.stringify(got) === JSON.stringify(parse(ex))).toBe(true);
  });

  it("steps aside for other layouts: indented items, anchors, several documents, other keys, a plain list", () => {
    const doc = { extras: [{ option: 1, period: 1 }], vehicles: [{ vehicle_reg_number: "A" }] };
    const indented = stringify(doc, { indentSeq: true });
    expect(parseSectioned(indented, parse)).toBeUndefined();
    expect(parseSectioned("vehicles:\n- &a {x: 1}\n- *a\n", parse)).toBeUndefined();
    // anchors of any name, in flow context too (found by a trial: they were read item by item, the alias unresolved)
    expect(parseSectioned("vehicles:\n- p: &ü 50\n- p: *ü\n", parse)).toBeUndefined();
    expect(parseSectioned("vehicles:\n- b: [&b x, y]\n- b: [*b]\n", parse)).toBeUndefined();
    expect(parseSectioned("vehicles:\n- b: {k: &c x}\n- b: {k: *c}\n", parse)).toBeUndefined();
    expect(parseSectioned("---\nvehicles:\n- {x: 1}\n", parse)).toBeUndefined();
    expect(parseSectioned("cars:\n- {x: 1}\n", parse)).toBeUndefined();
    expect(parseSectioned("- {x: 1}\n", parse)).toBeUndefined();
    const plain = stringify(doc, { indentSeq: false });
    expect(parseSectioned(plain, parse)).toEqual(doc);
  });

  it("property: any records written as the export writes them read back equal to a whole parse", () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 2 }),
    );
    const record = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), value, { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 3 }), fc.array(record, { maxLength: 4 }), (extras, vehicles) => {
        let text = "# yaml-language-server: $schema=x.json\nextras:\n";
        for (const r of extras) text += stringify([r], { lineWidth: 0 });
        if (!extras.length) text += "  []\n";
        text += "vehicles:\n";
        for (const r of vehicles) text += stringify([r], { lineWidth: 0 });
        const got = parseSectioned(text, parse);
        if (got !== undefined) expect(got).toEqual(parse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe("readAccountDocument (yaml read item by item)", () => {
  it("an item's yaml error names its line in the file, not in the item", async () => {
    const text = [
      "extras:",
      "- option: 1",
      "  period: 1",
      "vehicles:",
      "- vehicle_reg_number: A-1",
      "  vehicle_description: |", // a block scalar: read item by item, with the yaml package
      "    two lines",
      "- vehicle_reg_number: A-2",
      "  price_per_day: 4",
      "  price_per_day: 5", // line 10
      "",
    ].join("\n");
    const file = join(mkdtempSync(join(tmpdir(), "rentctl-file-")), "account.yaml");
    writeFileSync(file, text);
    const doc = await readAccountDocument(file, "yaml");
    const read = async () => {
      for await (const _ of doc.vehicles);
    };
    await expect(read()).rejects.toThrow(/not valid yaml: Map keys must be unique at line 10, column 3/);
  });
});
