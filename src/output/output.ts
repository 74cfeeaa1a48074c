import type { ChalkInstance } from "chalk";
import type { IO } from "../base/io.js";
import type { Json, JsonObject } from "../contract/records.js";
import type { SectionDecl } from "../contract/sections.js";
import type { CardSection } from "./card.js";
import type { Column, Namer, RenderOptions, ViewOptions } from "./fields.js";
import type { Format } from "./formats.js";
import { plainColor } from "./plain.js";
import { createListWriter, type ListWriter, renderIds, renderList, renderRecord } from "./render.js";

/** Results on stdout, in the chosen format, coloured only when stdout itself is a terminal. */
export interface Output {
  list(items: JsonObject[], columns?: Column[]): Promise<void>;
  listWriter(columns?: Column[]): ListWriter;
  record(record: Json): Promise<void>;
  /** One vehicle or extra: a card in sections (table format, no --fields), else as `record`. */
  /** `more`: sections after the record's (table only: `Used by` of an extra); other formats print the record alone. */
  card(record: JsonObject, sections: readonly SectionDecl[], currencyKey: string, more?: CardSection[]): Promise<void>;
  /** A nested document (a Flexible catalog): one table per section in the table format, else as `record`. */
  document(doc: JsonObject): Promise<void>;
  ids(ids: Array<number | string>): Promise<void>;
  /** How tables and cards are laid out from now on (`--ids`, `--wide`, `--all-fields` of the command). */
  setView(view: ViewOptions): void;
  /** The view as set, the width tables fit and the names (table format only). */
  view(): ViewOptions & { width: number; names?: Namer; color: ChalkInstance };
}

/** What tables need from their surroundings: names for ids and the width to fit. */
export interface ViewSource {
  names?: () => Namer;
  /** The terminal's width (or COLUMNS, or 80). */
  width: () => number;
}

/** The last line of a streamed list a failure cut short (`%` starts no YAML value, no JSON line, no csv row of several cells). */
export const INCOMPLETE_LINE = "%INCOMPLETE rentctl: the list stopped before its end (see the error on stderr)\n";

/**
 * `onExit` registers a clean-up: a list still open when the command failed
 * (say the server failed on page 2 of `--all -o json`) is marked incomplete
 * (below), and the error goes to stderr with its exit code.
 */
export function createOutput(
  io: IO,
  outColor: ChalkInstance,
  settings: () => { output: Format; fields?: string[] },
  onExit: (fn: () => Promise<void>) => void = () => {},
  source: ViewSource = { width: () => 80 },
): Output {
  let view: ViewOptions = {};
  const namer = () => (view.ids ? undefined : source.names?.());
  const opts = (columns?: Column[]): RenderOptions => {
    const s = settings();
    const table = s.output === "table";
    return {
      format: s.output,
      fields: s.fields,
      columns,
      color: outColor,
      io,
      names: table ? namer() : undefined,
      width: table ? source.width() : undefined,
      wide: view.wide,
    };
  };
  return {
    setView: (v) => {
      view = { ...view, ...v };
    },
    view: () => ({ ...view, width: source.width(), names: namer(), color: outColor }),
    list: (items, columns) => renderList(items, opts(columns)),
    listWriter: (columns) => {
      const w = createListWriter(opts(columns));
      let ended = false;
      let wrote = false;
      onExit(async () => {
        // A list cut short by a failure must not look complete (issue 41, 3c): a table is closed (a
        // person reads the error below it); a json array is left unclosed, so no parser takes it for
        // the whole list; ndjson, csv and yaml end with a line no reader takes for data. A command that
        // failed before its first item printed nothing.
        if (ended || !wrote) return;
        const format = settings().output;
        if (format === "table") await w.end().catch(() => {});
        else if (format !== "json") await writeOut(io, INCOMPLETE_LINE).catch(() => {});
      });
      return {
        push: async (items) => {
          await w.push(items);
          if (items.length) wrote = true;
        },
        end: async () => {
          ended = true;
          await w.end();
        },
      };
    },
    record: (record) => renderRecord(record, opts()),
    document: async (doc) => {
      const o = opts();
      if (o.format !== "table" || o.fields) return renderRecord(doc, o);
      // seams: the table renderings load only for table output
      const { renderDocument } = await import("./document.js");
      await writeOut(io, await renderDocument(doc, { color: outColor, width: o.width, wide: o.wide, names: o.names }));
    },
    card: async (record, sections, currencyKey, more) => {
      const o = opts();
      if (o.format !== "table" || o.fields) return renderRecord(record, o);
      const [{ recordCard }, { renderCard }] = await Promise.all([import("./record-card.js"), import("./card.js")]);
      const card = await recordCard(record, sections, { names: o.names, allFields: view.allFields, currencyKey });
      await writeOut(io, renderCard([...card, ...(more ?? [])], { color: outColor, width: o.width, wide: o.wide }));
    },
    ids: (ids) => renderIds(io, ids),
  };
}

/** With `--raw` the response bodies are the result (the client prints them): commands render nothing. */
export function silentOutput(): Output {
  const none = async () => {};
  return {
    list: none,
    listWriter: () => ({ push: none, end: none }),
    record: none,
    card: none,
    document: none,
    ids: none,
    setView: () => {},
    view: () => ({ width: 80, color: plainColor }),
  };
}

function writeOut(io: IO, text: string): Promise<void> {
  return new Promise<void>((resolve) => {
    if (text === "" || io.stdout.write(text)) resolve();
    else io.stdout.once("drain", () => resolve());
  });
}
