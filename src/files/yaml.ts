/**
 * The one way rentctl reads yaml: js-yaml (the one yaml library; it writes
 * them too, src/output/yaml.ts), YAML 1.2 core schema (`yes` / `on` are text,
 * no timestamps, no `<<` merge), one document, duplicate keys refused,
 * nesting bounded by the library (maxDepth). An error says where, as
 * `<what> at line L, column C:` and the line with a caret under the place.
 */
import { CORE_SCHEMA, load, YAMLException } from "js-yaml";

/** Parse a yaml text (an empty one is null); a syntax error is an Error whose message names the line and column. */
export function parseYaml(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA }) ?? null;
  } catch (e) {
    throw yamlSyntaxError(e);
  }
}

/** js-yaml's error said as rentctl says a place in a file: `<what> at line L, column C:` and the line with a caret. */
export function yamlSyntaxError(e: unknown): Error {
  if (!(e instanceof YAMLException)) return e instanceof Error ? e : new Error(String(e));
  const mark = e.mark as { line?: number; column?: number; snippet?: string | null } | undefined;
  if (mark?.line === undefined || mark.column === undefined) return new Error(e.reason);
  return new Error(
    `${e.reason} at line ${mark.line + 1}, column ${mark.column + 1}${mark.snippet ? `:\n\n${mark.snippet}` : ""}`,
  );
}

/**
 * parseYaml, and the 1-based line where each item of a top-level list (the
 * document's, or a top-level member's) starts, by the list: for messages
 * about the items of a document read whole.
 */
export function parseYamlWithLines(text: string): { value: unknown; itemLines: Map<unknown, number[]> } {
  const itemLines = new Map<unknown, number[]>();
  // the depth of each node the library composes, and the lines of the items of the list being closed
  let depth = 0;
  const opened: number[] = [];
  let items: number[][] = [[], []];
  const listener = (event: "open" | "close", state: { line: number; kind: string | null; result: unknown }) => {
    if (event === "open") {
      depth++;
      opened[depth] = state.line + 1;
      return;
    }
    // an item of a list at depth 1 (the document) or 2 (a top-level member) is a node at depth 2 or 3
    if (depth === 2 || depth === 3) items[depth - 2]!.push(opened[depth]!);
    if ((depth === 1 || depth === 2) && state.kind === "sequence") itemLines.set(state.result, items[depth - 1]!);
    if (depth === 1 || depth === 2) items[depth - 1] = [];
    if (depth === 1) items = [[], []];
    depth--;
  };
  try {
    const value = load(text, { schema: CORE_SCHEMA, listener }) ?? null;
    return { value, itemLines };
  } catch (e) {
    throw yamlSyntaxError(e);
  }
}
