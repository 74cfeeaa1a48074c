import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openApiDocument } from "../../src/contract/openapi.js";
import { runBuilt, sandboxEnv, tempHome } from "../helpers/cli.js";

/** `rentctl api --openapi` (json and yaml) and the sandbox's `GET /openapi.json`, through the built CLI. */
describe("the contract as OpenAPI through the built CLI", () => {
  it("api --openapi prints the document as json, and -o yaml the same document as yaml", async () => {
    const home = tempHome();
    try {
      const j = await runBuilt(["api", "--openapi"], home.env);
      expect(j.code, j.stderr).toBe(0);
      const doc = JSON.parse(j.stdout);
      const expected = openApiDocument({ version: doc.info.description.match(/rentctl (\S+)/)?.[1] });
      expect(doc).toEqual(expected);
      const y = await runBuilt(["api", "--openapi", "-o", "yaml"], home.env);
      expect(y.code, y.stderr).toBe(0);
      expect(parse(y.stdout)).toEqual(doc);
      const bad = await runBuilt(["api", "vehicles/list", "--openapi"], home.env);
      expect(bad.code).toBe(2);
    } finally {
      home.cleanup();
    }
  });

  it("the sandbox answers GET /openapi.json with the same operations and its own address", async () => {
    const ctx = await sandboxEnv();
    try {
      const res = await fetch(`${ctx.sb.url}/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { servers: Array<{ url: string }>; paths: unknown };
      expect(doc.servers[0]!.url).toBe(ctx.sb.url);
      expect(doc.paths).toEqual(openApiDocument().paths);
    } finally {
      await ctx.cleanup();
    }
  });
});
