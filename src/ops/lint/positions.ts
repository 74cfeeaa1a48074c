import { readFile } from "node:fs/promises";
import type * as yamlModule from "yaml";
import type { FleetFormat } from "../../files/format.js";

/**
 * Where a vehicle (or extra) and its fields are written in a yaml or json
 * file, from the parsers' own node positions: `yaml`'s parseDocument with a
 * LineCounter, `jsonc-parser`'s parseTree for json. Lines and columns are
 * 1-based (SARIF's and editors'). ndjson: the row's line; csv: none.
 */

export interface Position {
  line: number;
  column: number;
}

export type Locate = (section: "vehicles" | "extras", row: number, field?: string) => Position | undefined;

/** A field as a row may name it: the wire name or its kebab-case flag name. */
const keysOf = (field: string) => [field, field.replace(/_/g, "-")];

export async function positionsOf(path: string, format: FleetFormat): Promise<Locate | undefined> {
  const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  if (format === "yaml") return yamlPositions(text);
  if (format === "json") return jsonPositions(text);
  if (format === "ndjson") return ndjsonPositions(text);
  return undefined;
}

/**
 * The `yaml` package, for its node positions (js-yaml, which reads the files, gives none for keys).
 * Its ES module namespace, or the CommonJS default a bundle may hand back.
 */
async function yamlLibrary(): Promise<typeof yamlModule> {
  // a seam: the yaml package loads only for lint's positions in a yaml file
  const m = await import("yaml");
  return "LineCounter" in m ? m : (m as unknown as { default: typeof yamlModule }).default;
}

async function yamlPositions(text: string): Promise<Locate | undefined> {
  const Y = await yamlLibrary();
  const lines = new Y.LineCounter();
  const doc = Y.parseDocument(text, { lineCounter: lines, keepSourceTokens: false });
  const at = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined;
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const section = (name: "vehicles" | "extras") => {
    const root = doc.contents;
    if (Y.isSeq(root)) return name === "vehicles" ? root : undefined;
    if (!Y.isMap(root)) return undefined;
    const list = root.get(name, true);
    return Y.isSeq(list) ? list : undefined;
  };
  return (name, row, field) => {
    const item = section(name)?.items[row - 1];
    if (!Y.isNode(item)) return undefined;
    if (field && Y.isMap(item))
      for (const key of keysOf(field)) {
        const pair = item.items.find((p) => Y.isScalar(p.key) && p.key.value === key);
        if (pair && Y.isNode(pair.key)) return at(pair.key.range?.[0]);
      }
    return at(item.range?.[0]);
  };
}

async function jsonPositions(text: string): Promise<Locate | undefined> {
  // a seam: jsonc-parser loads only for lint's positions in a json file
  const jsonc = await import("jsonc-parser");
  const { parseTree, findNodeAtLocation } = (
    "parseTree" in jsonc ? jsonc : (jsonc as { default: typeof jsonc }).default
  ) as typeof jsonc;
  const root = parseTree(text);
  if (!root) return undefined;
  // offsets to lines and columns: the yaml package's LineCounter (the same binary search yaml files get)
  const lines = new (await yamlLibrary()).LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines.addNewLine(i + 1);
  const at = (offset: number): Position => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  return (name, row, field) => {
    const path = root.type === "array" ? (name === "vehicles" ? [row - 1] : undefined) : [name, row - 1];
    if (!path) return undefined;
    const item = findNodeAtLocation(root, path);
    if (!item) return undefined;
    if (field)
      for (const key of keysOf(field)) {
        const value = findNodeAtLocation(item, [key]);
        // the property node holds the key and the value: the key is where the member starts
        const property = value?.parent;
        if (property?.type === "property") return at(property.offset);
      }
    return at(item.offset);
  };
}

function ndjsonPositions(text: string): Locate {
  const rows: number[] = [];
  text.split("\n").forEach((l, i) => {
    if (l.trim()) rows.push(i + 1);
  });
  return (name, row) => (name === "vehicles" && rows[row - 1] ? { line: rows[row - 1]!, column: 1 } : undefined);
}
