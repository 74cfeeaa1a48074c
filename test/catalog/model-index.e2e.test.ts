import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countedSandbox } from "../fleet/helpers.js";
import { json, runBuilt, runMain } from "../helpers/cli.js";

/**
 * The model reverse index (configuration id -> brand, model, configuration)
 * on a first run with an empty cache, through the built CLI and a counting
 * proxy in front of the sandbox (issue 26, part 1 and 5):
 * - not cut short: every vehicle's configuration gets its name, and the
 *   index holds every configuration the catalogs list;
 * - as few requests as the catalogs allow: the contract lists models only
 *   per brand (brand_id required) and configurations only per model
 *   (model_id required), so a full index is 1 brands + B models + M
 *   equipments requests per segment, each catalog exactly once;
 * - cached in the data dir: the next run makes no catalog request for it.
 */

let s: Awaited<ReturnType<typeof countedSandbox>>;
beforeAll(async () => {
  s = await countedSandbox();
});
afterAll(async () => {
  await s.close();
});

const CATALOG = /^GET \/api\/v302\/vehicles\/(brands|models|equipments)\?/;
const catalogRequests = () => [...s.proxy.urls.entries()].filter(([u]) => CATALOG.test(u));

describe("the model index on an empty cache (built CLI, sandbox)", () => {
  it("names every configuration, with one request per brands / models / equipments catalog, and none on the next run", async () => {
    s.proxy.urls.clear();
    const r = await runBuilt(["vehicle", "list", "--wide", "--user", "1001"], { ...s.env, COLUMNS: "200" });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split("\n").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).not.toMatch(/#\d+/); // an unresolved id shows as #id

    const requests = catalogRequests();
    // each catalog with its parameters exactly once
    for (const [url, n] of requests) expect(n, url).toBe(1);
    const count = (kind: string) => requests.filter(([u]) => u.includes(`/vehicles/${kind}?`)).length;
    // the walk of segment 1 only (owner 1001's vehicles are cars): every brand's models, every model's configurations
    // (the catalogs read in-process, straight from the sandbox: only the list above is the built CLI's first run)
    const brands = json<Array<{ id: number }>>(
      (await runMain(["catalog", "brands", "--segment", "1", "-o", "json"], s.ctx.env)).stdout,
    );
    expect(count("brands")).toBe(1);
    expect(count("models")).toBe(brands.length);
    let models = 0;
    let configurations = 0;
    for (const b of brands) {
      const ms = json<Array<{ id: number }>>(
        (await runMain(["catalog", "models", "--brand", String(b.id), "-o", "json"], s.ctx.env)).stdout,
      );
      models += ms.length;
      for (const m of ms)
        configurations += json<unknown[]>(
          (await runMain(["catalog", "equipments", "--model", String(m.id), "-o", "json"], s.ctx.env)).stdout,
        ).length;
    }
    expect(count("equipments")).toBe(models);
    expect(requests.length).toBe(1 + brands.length + models);

    // the index in the data dir holds every configuration of the catalogs: nothing cut short
    const dir = join(s.env.RENTCTL_DATA_DIR!, "cache");
    const file = readdirSync(dir).find((f) => f.startsWith("model-index.segment_id-1."))!;
    const index = json<{ entries: Record<string, string[]> }>(readFileSync(join(dir, file), "utf8"));
    expect(Object.keys(index.entries)).toHaveLength(configurations);
    for (const [, names] of Object.entries(index.entries)) expect(names.every((n) => n.length > 0)).toBe(true);

    s.proxy.urls.clear();
    const again = await runBuilt(["vehicle", "list", "--wide", "--user", "1001"], { ...s.env, COLUMNS: "200" });
    expect(again.stdout).toBe(r.stdout);
    expect(catalogRequests()).toEqual([]);
  }, 120_000);

  it("another owner's segments (motorcycles, boats) are walked too, each once: every model named", async () => {
    s.proxy.urls.clear();
    const r = await runBuilt(["vehicle", "list", "--wide", "--user", "1002"], { ...s.env, COLUMNS: "200" });
    expect(r.code, r.stderr).toBe(0);
    for (const row of r.stdout.trim().split("\n").slice(1)) expect(row).not.toMatch(/#\d+/);
    for (const [url, n] of catalogRequests()) expect(n, url).toBe(1);
  }, 120_000);
});
