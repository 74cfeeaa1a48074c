import type { EncodableRecord } from "../../api/encode.js";
import { UsageError } from "../../base/errors.js";
import { itemId, labelOf } from "../../catalog/items.js";
import { CATALOG_OPERATIONS, DEFAULT_SEGMENT, operation } from "../../contract/operations.js";
import { isObject, type JsonObject, unwrapRecord } from "../../contract/records.js";
import type { Operation } from "../../contract/types.js";
import type { Deps } from "../../deps.js";
import { flag } from "../flags.js";
import { defineVerb, type Verb } from "../verb.js";

/** One verb per catalog operation of the contract (`rentctl catalog brands`, …), its flags from the operation's params. */
export const verbs: readonly Verb[] = CATALOG_OPERATIONS.map(catalogVerb);

function catalogVerb(op: Operation): Verb {
  const has = (n: string) => op.params.find((p) => p.name === n);
  const seg = has("segment_id");
  const byModel = has("model_id") !== undefined;
  return defineVerb({
    name: op.catalogName ?? op.id,
    description: op.summary,
    flags: {
      segment:
        seg || has("brand_id")
          ? flag.string(
              "--segment <id|name>",
              seg?.required
                ? "segment id or name (required by the API; rentctl sends 1 = cars when omitted)"
                : "segment id or name (default 1 = cars)",
            )
          : undefined,
      brand: has("brand_id")
        ? flag.string("--brand <id|name>", "brand id or name (required)", { required: true })
        : undefined,
      model: byModel
        ? flag.string("--model <id|name>", "model id or name (required; a name needs --brand)", { required: true })
        : undefined,
      // after --model in help: the brand of a model given by name
      modelBrand: byModel ? flag.string("--brand <id|name>", "brand, to resolve a model name") : undefined,
    },
    // Runs as written: a catalog that needs a brand or a model names one (a bare `catalog models` is refused).
    examples: [
      [
        "rentctl catalog",
        op.catalogName ?? op.id,
        ...(byModel ? ["--brand toyota --model corolla"] : has("brand_id") ? ["--brand toyota"] : []),
        ...(seg?.required ? ["--segment cars"] : []),
      ].join(" "),
    ],
    run: (deps, _args, o) =>
      run(deps, { op: op.id, segment: o.segment, brand: o.brand ?? o.modelBrand, model: o.model }),
  });
}

export interface CatalogOptions {
  /** Operation id, e.g. `catalog.models`. */
  op: string;
  segment?: string;
  brand?: string;
  model?: string;
}

/**
 * `rentctl catalog <name>`: one public catalog operation. `--segment`,
 * `--brand` and `--model` take an id or a name (in the `--locale` in use or
 * in English). Where the operation takes a segment (optional or required),
 * 1 (cars) is sent when none is given.
 */
export async function run(deps: Deps, opts: CatalogOptions): Promise<void> {
  const op = operation(opts.op);
  const catalogs = deps.catalogs();
  const takes = (name: string) => op.params.some((p) => p.name === name);
  const params: EncodableRecord = {};
  // A --locale given is checked even where the catalog takes none: an unknown one is a usage error everywhere.
  if (takes("locale_id") || deps.flags.locale !== undefined) {
    const locale = await deps.locale();
    if (takes("locale_id")) params.locale_id = locale;
  }
  let segment: number | undefined;
  if (takes("segment_id") || takes("brand_id")) {
    segment = (await catalogs.resolve("catalog.segments", opts.segment, { flag: "--segment" })) ?? DEFAULT_SEGMENT;
    if (takes("segment_id")) params.segment_id = segment;
  }
  if (takes("brand_id")) {
    params.brand_id = await catalogs.resolve("catalog.brands", opts.brand, {
      flag: "--brand",
      params: { segment_id: segment },
    });
  }
  if (takes("model_id")) {
    params.model_id = await resolveModel(deps, opts.model, opts.brand, opts.segment);
  }
  const client = await deps.client();
  const res = await client.call(op.id, params);
  if (res.decoded.kind === "list") {
    catalogs.remember(op.id, params, res.decoded.items);
    if (deps.flags.quiet) {
      return deps.out.ids(res.decoded.items.map((i) => itemId(i) ?? "").filter((x) => x !== ""));
    }
    const table = deps.settings().output === "table";
    if (table && res.decoded.items.some((i) => isObject(i) && i.segment_id !== undefined))
      await deps.out.list(await withSegmentNames(deps, res.decoded.items));
    else await deps.out.list(res.decoded.items);
    if (table) deps.msg.info(deps.color.dim(`${res.decoded.items.length} items`));
    return;
  }
  // A Flexible body prints its record (the `data` member when there is one), never the envelope.
  const doc = unwrapRecord(res.decoded.body);
  return isObject(doc) ? deps.out.document(doc) : deps.out.record(doc);
}

/**
 * A table for a person names each item's segment (`SEGMENT Boats` beside
 * `SEGMENT_ID 3`); json, csv and the rest keep the items as the server sent them.
 */
async function withSegmentNames(deps: Deps, items: JsonObject[]): Promise<JsonObject[]> {
  const segments = await deps
    .catalogs()
    .items("catalog.segments", {})
    .catch(() => [] as JsonObject[]);
  const names = new Map(segments.map((s) => [itemId(s), labelOf(s)]));
  return items.map((i) => {
    const name = names.get(Number(i.segment_id));
    return name === undefined ? i : { ...i, segment: name };
  });
}

/** A model name needs its brand to be looked up (`--brand toyota --model corolla`). */
async function resolveModel(
  deps: Deps,
  model: string | undefined,
  brand: string | undefined,
  segment: string | undefined,
): Promise<number | undefined> {
  if (model === undefined || /^\d+$/.test(model.trim())) return model === undefined ? undefined : Number(model);
  if (brand === undefined) {
    throw new UsageError("--model: a model name needs --brand (or give the model id)", {
      hint: "example: rentctl catalog equipments --brand toyota --model corolla",
    });
  }
  const catalogs = deps.catalogs();
  const segmentId = await catalogs.resolve("catalog.segments", segment, { flag: "--segment" });
  const brandId = await catalogs.resolve("catalog.brands", brand, {
    flag: "--brand",
    params: segmentId !== undefined ? { segment_id: segmentId } : {},
  });
  return catalogs.resolve("catalog.models", model, { flag: "--model", params: { brand_id: brandId } });
}
