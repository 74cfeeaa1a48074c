import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { EncodableRecord } from "../api/encode.js";
import { released, tempFor } from "../base/temp-files.js";
import { DEFAULT_SEGMENT } from "../contract/operations.js";
import { isObject, type JsonObject } from "../contract/records.js";
import { CATALOG_TTL_MS, catalogCacheDir } from "./cache.js";
import { itemId, itemLabel } from "./items.js";

/**
 * The reverse index of vehicle configurations: `vehicle_model_id` (a
 * configuration id) -> brand, model and configuration names, so a table
 * reads `Toyota Corolla (1.8 Hybrid Comfort)` instead of `1003`.
 *
 * The contract lists configurations per model and models per brand only, so
 * the index is built by walking a segment's brands, their models and their
 * configurations once (each catalog through the catalog service: fetched once,
 * cached on disk like any catalog), then kept beside the catalog caches for a
 * day, per server (scope), segment and locale:
 *
 *   <dataDir>/cache/model-index.segment_id-<s>.locale_id-<l>.json
 *   { "version": 1, "scope": "sandbox", "fetchedAt": "…", "entries": { "1003": ["Toyota", "Corolla", "1.8 Hybrid Comfort"] } }
 */

export type ModelEntry = readonly [brand: string, model: string, configuration: string];

/** What the index needs from the catalog service (kept narrow: the service builds the index). */
export interface ModelIndexSource {
  /** `fresh`: past the disk cache (a walk again after a miss). */
  items(opId: string, params: EncodableRecord, opts?: { fresh?: boolean }): Promise<JsonObject[]>;
  locale(): Promise<number>;
  dataDir?: string;
  scope(): string;
  now(): number;
  ttlMs?: number;
}

const VERSION = 1;
/**
 * An id missing from an index read from disk may be a configuration added
 * since it was built: the index is walked again (fresh catalogs) when it is
 * older than this, at most once per process and segment.
 */
export const MODEL_INDEX_REFRESH_MS = 60 * 60 * 1000;
/** Catalog requests in flight at once while walking a segment. */
const CONCURRENCY = 6;

export function modelIndexFile(dataDir: string, segmentId: number, localeId: number): string {
  return join(catalogCacheDir({ dataDir }), `model-index.segment_id-${segmentId}.locale_id-${localeId}.json`);
}

/** `Brand Model (configuration)`, as tables show a configuration. */
export function modelLabel([brand, model, configuration]: ModelEntry): string {
  const head = model.toLowerCase().startsWith(brand.toLowerCase()) ? model : `${brand} ${model}`;
  return configuration ? `${head} (${configuration})` : head;
}

/**
 * The configurations each label names (`modelLabel`, compared case-insensitively
 * with runs of spaces as one): a label that names one id reads back as that id
 * (fleet files with `--names`); one that names several is ambiguous, and an
 * export keeps the id.
 */
export function labelIndex(entries: ReadonlyMap<number, ModelEntry>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, entry] of entries) {
    const k = labelKey(modelLabel(entry));
    const ids = out.get(k);
    if (ids) ids.push(id);
    else out.set(k, [id]);
  }
  return out;
}

export function labelKey(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}

async function mapLimit<T, R>(list: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await fn(list[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  return out;
}

export class ModelIndex {
  readonly #src: ModelIndexSource;
  readonly #segments = new Map<string, Promise<Loaded>>();
  readonly #refreshed = new Set<string>();

  constructor(src: ModelIndexSource) {
    this.#src = src;
  }

  /**
   * The entry of a configuration id in a segment (default cars), or undefined. Throws when the
   * catalogs are unreachable. An id missing from an index read from disk that is over an hour old
   * walks the catalogs again, once per process and segment (a configuration added since).
   */
  async entry(configurationId: number, segmentId: number = DEFAULT_SEGMENT): Promise<ModelEntry | undefined> {
    const { key, loaded } = await this.#loaded(segmentId);
    const found = loaded.index.get(configurationId);
    if (found || loaded.builtAt === undefined || this.#refreshed.has(key)) return found;
    if (this.#src.now() - loaded.builtAt < MODEL_INDEX_REFRESH_MS) return undefined;
    this.#refreshed.add(key);
    const again = this.#load(segmentId, await this.#src.locale(), true);
    again.catch(() => {});
    this.#segments.set(key, again);
    return (await again).index.get(configurationId);
  }

  /** Every configuration of a segment (default cars): id -> brand, model, configuration. Throws when the catalogs are unreachable. */
  async entries(segmentId: number = DEFAULT_SEGMENT): Promise<ReadonlyMap<number, ModelEntry>> {
    return (await this.#loaded(segmentId)).loaded.index;
  }

  async #loaded(segmentId: number): Promise<{ key: string; loaded: Loaded }> {
    const locale = await this.#src.locale();
    const key = `${segmentId}|${locale}`;
    let got = this.#segments.get(key);
    if (!got) {
      got = this.#load(segmentId, locale, false);
      got.catch(() => {});
      this.#segments.set(key, got);
    }
    return { key, loaded: await got };
  }

  async #load(segmentId: number, locale: number, fresh: boolean): Promise<Loaded> {
    const dir = this.#src.dataDir;
    const file = dir ? modelIndexFile(dir, segmentId, locale) : undefined;
    if (file && !fresh) {
      const cached = readIndex(file, this.#src.scope(), this.#src.now(), this.#src.ttlMs ?? CATALOG_TTL_MS);
      if (cached) return cached;
    }
    const index = await this.#build(segmentId, fresh);
    if (file && index.size) writeIndex(file, this.#src.scope(), new Date(this.#src.now()), index);
    return { index };
  }

  async #build(segmentId: number, fresh: boolean): Promise<Map<number, ModelEntry>> {
    const index = new Map<number, ModelEntry>();
    const opts = { fresh };
    const brands = await this.#src.items("catalog.brands", { segment_id: segmentId }, opts);
    const models = (
      await mapLimit(brands, CONCURRENCY, async (b) => {
        const brandId = itemId(b);
        if (brandId === undefined) return [];
        const list = await this.#src.items("catalog.models", { brand_id: brandId, segment_id: segmentId }, opts);
        return list.map((m) => ({ brand: itemLabel(b), model: m }));
      })
    ).flat();
    await mapLimit(models, CONCURRENCY, async ({ brand, model }) => {
      const modelId = itemId(model);
      if (modelId === undefined) return;
      for (const c of await this.#src.items("catalog.equipments", { model_id: modelId }, opts)) {
        const id = itemId(c);
        if (id !== undefined && !index.has(id)) index.set(id, [brand, itemLabel(model), itemLabel(c)]);
      }
    });
    return index;
  }
}

/** An index, and when it was built if it was read from disk. */
interface Loaded {
  index: Map<number, ModelEntry>;
  builtAt?: number;
}

function readIndex(file: string, scope: string, now: number, ttlMs: number): Loaded | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!isObject(parsed) || parsed.version !== VERSION || parsed.scope !== scope || !isObject(parsed.entries))
      return undefined;
    const at = Date.parse(String(parsed.fetchedAt));
    if (!Number.isFinite(at) || at > now + 60_000 || now - at >= ttlMs) return undefined;
    const out = new Map<number, ModelEntry>();
    for (const [k, v] of Object.entries(parsed.entries)) {
      if (Array.isArray(v) && v.length === 3 && v.every((s) => typeof s === "string"))
        out.set(Number(k), v as unknown as ModelEntry);
    }
    return { index: out, builtAt: at };
  } catch {
    return undefined;
  }
}

function writeIndex(file: string, scope: string, now: Date, index: Map<number, ModelEntry>): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    const data = { version: VERSION, scope, fetchedAt: now.toISOString(), entries: Object.fromEntries(index) };
    const tmp = tempFor(file);
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(data)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    released(tmp);
  } catch {
    // best effort: the next run builds it again
  }
}
