import type { EncodableRecord } from "../../api/encode.js";
import { DEFAULT_SEGMENT, operation } from "../../contract/operations.js";
import type { Deps } from "../../deps.js";
import { resolveRef } from "./resolve.js";

export interface CatalogOptions {
  /** Operation id, e.g. `catalog.models`. */
  op: string;
  segment?: string;
  brand?: string;
  model?: string;
}

/**
 * `rentctl catalog <name>`: one public catalog operation. `--segment`,
 * `--brand` and `--model` take an id or a name. Where the operation takes a
 * segment (optional or required), 1 (cars) is sent when none is given.
 */
export async function run(deps: Deps, opts: CatalogOptions): Promise<void> {
  const op = operation(opts.op);
  const takes = (name: string) => op.params.some((p) => p.name === name);
  const params: EncodableRecord = {};
  if (takes("locale_id")) params.locale_id = await deps.locale();
  let segment: number | undefined;
  if (takes("segment_id") || takes("brand_id")) {
    segment = (await resolveRef(deps, "catalog.segments", opts.segment, "--segment")) ?? DEFAULT_SEGMENT;
    if (takes("segment_id")) params.segment_id = segment;
  }
  if (takes("brand_id")) {
    params.brand_id = await resolveRef(deps, "catalog.brands", opts.brand, "--brand", { segment_id: segment });
  }
  if (takes("model_id")) {
    params.model_id = await resolveModel(deps, opts.model, opts.brand);
  }
  const client = await deps.client();
  const res = await client.call(op.id, params);
  if (deps.flags.raw) return deps.out.record(res.body);
  if (res.decoded.kind === "list") {
    const { rememberCatalog } = await import("./resolve.js");
    await rememberCatalog(deps, op.id, res.decoded.items);
    if (deps.flags.quiet) {
      const { itemId } = await import("./resolve.js");
      return deps.out.ids(res.decoded.items.map((i) => itemId(i) ?? "").filter((x) => x !== ""));
    }
    await deps.out.list(res.decoded.items);
    if (deps.settings().output === "table") deps.msg.info(deps.color.dim(`${res.decoded.items.length} items`));
    return;
  }
  return deps.out.record(res.decoded.body);
}

/** A model name needs its brand to be looked up (`--brand toyota --model corolla`). */
async function resolveModel(
  deps: Deps,
  model: string | undefined,
  brand: string | undefined,
): Promise<number | undefined> {
  if (model === undefined || /^\d+$/.test(model.trim())) return model === undefined ? undefined : Number(model);
  if (brand === undefined) {
    const { UsageError } = await import("../../errors.js");
    throw new UsageError("--model: a model name needs --brand (or give the model id)", {
      hint: "example: rentctl catalog equipments --brand toyota --model corolla",
    });
  }
  const brandId = await resolveRef(deps, "catalog.brands", brand, "--brand");
  return resolveRef(deps, "catalog.models", model, "--model", { brand_id: brandId });
}
