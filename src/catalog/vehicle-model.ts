import { UsageError } from "../base/errors.js";
import { fold } from "../base/nearest.js";
import { itemId, itemLabel } from "./items.js";
import type { Catalogs } from "./service.js";

/**
 * `vehicle_model_id` is the contract's "vehicle configuration id": a leaf of
 * brand -> model -> configuration (the `catalog equipments` of a model). People
 * name the levels: `--brand Toyota --model Corolla --configuration "1.8 Hybrid"`.
 * This resolves such a reference to the configuration id, each name at its
 * own level, and catches a model id given where a configuration id belongs.
 */
export interface ModelRef {
  /** Segment id or name (brands are listed per segment; default cars). */
  segment?: string | number;
  brand?: string | number;
  /** A model id or name with `--configuration`; alone, a configuration id (the wire meaning) or a model name. */
  model?: string | number;
  configuration?: string | number;
}

const isId = (v: unknown) => typeof v === "number" || (typeof v === "string" && /^\s*\d+\s*$/.test(v));
const given = (v: unknown) => v !== undefined && v !== null && v !== "";

const FIND = "find one with `rentctl catalog equipments --brand BRAND --model MODEL`";

/** The configuration id (`vehicle_model_id`) a reference names, or undefined when it names none. */
export async function resolveConfiguration(catalogs: Catalogs, ref: ModelRef): Promise<number | undefined> {
  const { brand, model, configuration } = ref;
  if (!given(configuration) && !given(model)) {
    if (given(brand))
      throw new UsageError("--brand: a brand alone names no vehicle configuration", {
        hint: `add --model and --configuration (${FIND})`,
      });
    return undefined;
  }
  // A configuration id, given as such or as --model alone (the contract's meaning of vehicle_model_id).
  if (isId(configuration)) return Number(configuration);
  if (!given(configuration) && isId(model)) {
    if (given(brand)) await refuseModelId(catalogs, ref, Number(model));
    return Number(model);
  }

  const modelId = await resolveModel(catalogs, ref);
  const configurations = await catalogs.items("catalog.equipments", { model_id: modelId });
  if (given(configuration)) {
    return catalogs.resolve("catalog.equipments", String(configuration), {
      flag: "--configuration",
      params: { model_id: modelId },
    });
  }
  // --model NAME alone: a model is not a configuration, unless it has only one.
  const withIds = configurations.filter((c) => itemId(c) !== undefined);
  if (withIds.length === 1) return itemId(withIds[0]!);
  throw new UsageError(
    `--model ${JSON.stringify(String(model))} is a model; vehicle_model_id is one of its configurations`,
    {
      hint: withIds.length
        ? `add --configuration NAME or ID: ${withIds.map((c) => `${itemId(c)} ${itemLabel(c)}`).join(", ")}`
        : `the model lists no configurations here; ${FIND}`,
    },
  );
}

async function segmentParams(catalogs: Catalogs, segment: ModelRef["segment"]) {
  const id = await catalogs.resolve("catalog.segments", segment === undefined ? undefined : String(segment), {
    flag: "--segment",
  });
  return id !== undefined ? { segment_id: id } : {};
}

async function resolveModel(catalogs: Catalogs, ref: ModelRef): Promise<number> {
  if (isId(ref.model)) return Number(ref.model);
  if (!given(ref.model))
    throw new UsageError("--configuration: a configuration name needs its model (--brand and --model)", {
      hint: `or give the configuration id; ${FIND}`,
    });
  if (!given(ref.brand))
    throw new UsageError("--model: a model name needs --brand (or give the model id)", {
      hint: 'example: --brand Toyota --model Corolla --configuration "1.8 Hybrid"',
    });
  const brandId = await catalogs.resolve("catalog.brands", String(ref.brand), {
    flag: "--brand",
    params: await segmentParams(catalogs, ref.segment),
  });
  return (await catalogs.resolve("catalog.models", String(ref.model), {
    flag: "--model",
    params: { brand_id: brandId },
  })) as number;
}

/** With a brand known, a number given as --model that is one of its model ids (and no configuration of it) is a mistake. */
async function refuseModelId(catalogs: Catalogs, ref: ModelRef, id: number): Promise<void> {
  let models: Awaited<ReturnType<Catalogs["items"]>>;
  try {
    const brandId = await catalogs.resolve("catalog.brands", String(ref.brand), {
      flag: "--brand",
      params: await segmentParams(catalogs, ref.segment),
    });
    models = await catalogs.items("catalog.models", { brand_id: brandId });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return; // cannot check: the server will judge the id
  }
  const model = models.find((m) => itemId(m) === id);
  if (!model) return;
  const configurations = await catalogs.items("catalog.equipments", { model_id: id }).catch(() => []);
  if (configurations.some((c) => itemId(c) === id)) return;
  throw new UsageError(`--model ${id} is the model ${itemLabel(model)}, not a vehicle configuration id`, {
    hint: configurations.length
      ? `vehicle_model_id is a configuration: add --configuration NAME or ID (${configurations
          .map((c) => `${itemId(c)} ${itemLabel(c)}`)
          .join(", ")})`
      : `vehicle_model_id is a configuration id; ${FIND}`,
  });
}

/**
 * The configurations a model name stands for (`--where model=corolla`,
 * `model="toyota corolla hybrid"`): each word of the text must appear in
 * "brand model configuration" (case-insensitive, accents folded), and at
 * least one in the brand or model name (a configuration's equipment words
 * alone, "hybrid", would mean listing every model's configurations). One
 * request per brand's models and per matching model's configurations, each
 * cached by the catalog service like any catalog.
 */
export async function configurationsNamed(
  catalogs: Catalogs,
  text: string,
  segment?: string | number,
): Promise<number[]> {
  const words = fold(text).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const ids: number[] = [];
  for (const brand of await catalogs.items("catalog.brands", await segmentParams(catalogs, segment))) {
    const brandId = itemId(brand);
    if (brandId === undefined) continue;
    const brandName = fold(itemLabel(brand));
    for (const model of await catalogs.items("catalog.models", { brand_id: brandId })) {
      const modelId = itemId(model);
      if (modelId === undefined) continue;
      const named = `${brandName} ${fold(itemLabel(model))}`;
      if (!words.some((w) => named.includes(w))) continue;
      for (const c of await catalogs.items("catalog.equipments", { model_id: modelId })) {
        const id = itemId(c);
        const full = `${named} ${fold(itemLabel(c))}`;
        if (id !== undefined && words.every((w) => full.includes(w))) ids.push(id);
      }
    }
  }
  return ids;
}
