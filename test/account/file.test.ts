import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { readDocument } from "../../src/files/doc-stream.js";
import { parseYaml as parse } from "../../src/files/yaml.js";
import { readAccountDocument } from "../../src/plans/account-file.js";
import { ROOT } from "../helpers/cli.js";

/**
 * The item-by-item yaml reading of large account files (src/files/doc-stream.ts)
 * gives exactly what a whole-document parse by the yaml library gives; other
 * layouts are read whole by the library (the same values).
 */
const tmp = mkdtempSync(join(tmpdir(), "rentctl-sectioned-"));
let files = 0;

/** The document as the streamed reader gives it, put back together; `items` counts what was read item by item. */
async function sectioned(text: string): Promise<unknown> {
  const path = join(tmp, `s${files++}.yaml`);
  writeFileSync(path, text);
  let doc: unknown = null;
  let list: unknown[] = [];
  for await (const e of readDocument(path, "yaml", ["extras", "vehicles"])) {
    if (e.type === "shape") doc = e.shape === "list" ? list : e.shape === "mapping" ? {} : null;
    else if (e.type === "member") (doc as Record<string, unknown>)[e.key] = e.value;
    else if (e.type === "open") {
      list = e.key === "" ? (doc as unknown[]) : [];
      if (e.key !== "") (doc as Record<string, unknown>)[e.key] = list;
    } else if (e.type === "item") list.push(e.value);
  }
  return doc;
}

describe("the streamed yaml reader (item by item)", () => {
  it("equals a whole parse on the export layout (comments, block scalars, nested lists, empty sections)", async () => {
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
    expect(await sectioned(text)).toEqual(parse(text));
    expect(await sectioned("extras:\n  []\nvehicles:\n  []\n")).toEqual({ extras: [], vehicles: [] });
    const ex = readFileSync(join(ROOT, "examples", "account.yaml"), "utf8");
    expect(JSON.stringify(await sectioned(ex))).toBe(JSON.stringify(parse(ex)));
  });

  it("other layouts (indented items, anchors, several documents, other keys, a plain list) give the whole parse's values", async () => {
    const doc = { extras: [{ option: 1, period: 1 }], vehicles: [{ vehicle_reg_number: "A" }] };
    const indented = stringify(doc, { indentSeq: true });
    expect(await sectioned(indented)).toEqual(parse(indented));
    expect(await sectioned("vehicles:\n- &a {x: 1}\n- *a\n")).toEqual(parse("vehicles:\n- &a {x: 1}\n- *a\n"));
    // anchors of any name, in flow context too (found by a trial: they were read item by item, the alias unresolved)
    expect(await sectioned("vehicles:\n- p: &ü 50\n- p: *ü\n")).toEqual(parse("vehicles:\n- p: &ü 50\n- p: *ü\n"));
    expect(await sectioned("vehicles:\n- b: [&b x, y]\n- b: [*b]\n")).toEqual(
      parse("vehicles:\n- b: [&b x, y]\n- b: [*b]\n"),
    );
    expect(await sectioned("vehicles:\n- b: {k: &c x}\n- b: {k: *c}\n")).toEqual(
      parse("vehicles:\n- b: {k: &c x}\n- b: {k: *c}\n"),
    );
    expect(await sectioned("---\nvehicles:\n- {x: 1}\n")).toEqual(parse("---\nvehicles:\n- {x: 1}\n"));
    expect(await sectioned("cars:\n- {x: 1}\n")).toEqual(parse("cars:\n- {x: 1}\n"));
    expect(await sectioned("- {x: 1}\n")).toEqual(parse("- {x: 1}\n"));
    const plain = stringify(doc, { indentSeq: false });
    expect(await sectioned(plain)).toEqual(doc);
  });

  it("property: any records written as the export writes them read back equal to a whole parse", async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 2 }),
    );
    const record = fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), value, { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 3 }),
        fc.array(record, { maxLength: 4 }),
        async (extras, vehicles) => {
          let text = "# yaml-language-server: $schema=x.json\nextras:\n";
          for (const r of extras) text += stringify([r], { lineWidth: 0 });
          if (!extras.length) text += "  []\n";
          text += "vehicles:\n";
          for (const r of vehicles) text += stringify([r], { lineWidth: 0 });
          expect(await sectioned(text)).toEqual(parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("readAccountDocument (yaml)", () => {
  it("an item's yaml error names its line in the file, not in the item", async () => {
    const text = [
      "extras:",
      "- option: 1",
      "  period: 1",
      "vehicles:",
      "- vehicle_reg_number: A-1",
      "  vehicle_description: |", // a block scalar
      "    two lines",
      "- vehicle_reg_number: A-2",
      "  price_per_day: 4",
      "  price_per_day: 5", // line 10
      "",
    ].join("\n");
    const file = join(mkdtempSync(join(tmpdir(), "rentctl-file-")), "account.yaml");
    writeFileSync(file, text);
    const read = async () => {
      const doc = await readAccountDocument(file, "yaml");
      for await (const _ of doc.vehicles);
    };
    await expect(read()).rejects.toThrow(/not valid yaml: duplicated mapping key at line 10, column 3/);
  });
});
