import { describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/operations.js";
import { KEY_1001, start, withSandbox } from "./helpers.js";

const currencies = (url: string) => fetch(`${url}${API_PREFIX}/currencies`);

describe("faults", () => {
  it("failRate: 500 and 503 (alternating) with a JSON error body and meta", async () => {
    await withSandbox({ failRate: 1, faultFirst: 2 }, async ({ url }) => {
      const a = await currencies(url);
      expect(a.status).toBe(500);
      expect(await a.json()).toMatchObject({
        is_success: false,
        errors: { message: "internal server error", code: 500 },
        meta: { method: "GET", path: `${API_PREFIX}/currencies`, api_version: 302 },
      });
      const b = await currencies(url);
      expect(b.status).toBe(503);
      expect(((await b.json()) as { errors: unknown }).errors).toEqual({ message: "service unavailable", code: 503 });
      expect((await currencies(url)).status).toBe(200);
    });
  });

  it("html502Rate: 502 with an HTML body", async () => {
    await withSandbox({ html502Rate: 1 }, async ({ url }) => {
      const r = await currencies(url);
      expect(r.status).toBe(502);
      expect(r.headers.get("content-type")).toBe("text/html");
      expect(await r.text()).toMatch(/^<html>[\s\S]*502 Bad Gateway/);
    });
  });

  it("resetRate: the socket is destroyed without an answer", async () => {
    await withSandbox({ resetRate: 1, faultFirst: 1 }, async ({ url }) => {
      await expect(currencies(url)).rejects.toThrow();
      expect((await currencies(url)).status).toBe(200);
    });
  });

  it("throttleRate: 429 with Retry-After (default 1, configurable)", async () => {
    await withSandbox({ throttleRate: 1, faultFirst: 1 }, async ({ url }) => {
      const r = await currencies(url);
      expect(r.status).toBe(429);
      expect(r.headers.get("retry-after")).toBe("1");
      expect(((await r.json()) as { errors: unknown }).errors).toEqual({ message: "too many requests", code: 429 });
    });
    await withSandbox({ throttleRate: 1, retryAfterSeconds: 7 }, async ({ url }) => {
      expect((await currencies(url)).headers.get("retry-after")).toBe("7");
    });
  });

  it("faultFirst with several kinds: the first N requests take them in turn, then none", async () => {
    await withSandbox({ faultFirst: 5, throttleRate: 1, failRate: 0.5, html502Rate: 0.1 }, async ({ url }) => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await currencies(url)).status);
      // order: html502, throttle, fail (500, then 503)
      expect(statuses).toEqual([502, 429, 500, 502, 429, 200, 200]);
    });
  });

  it("rates use the injected RNG", async () => {
    const draws = [0.9, 0.1, 0.6, 0.4];
    let i = 0;
    await withSandbox({ failRate: 0.5, random: () => draws[i++ % draws.length] as number }, async ({ url }) => {
      const statuses: number[] = [];
      for (let k = 0; k < 4; k++) statuses.push((await currencies(url)).status);
      expect(statuses).toEqual([200, 500, 200, 503]);
    });
  });

  it("a faulted request changes nothing", async () => {
    await withSandbox({ failRate: 1, faultFirst: 1 }, async ({ url }) => {
      const create = () =>
        fetch(`${url}${API_PREFIX}/vehicles/extras/create`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY_1001}` },
          body: new URLSearchParams({
            locale_id: "40",
            option_id: "1",
            price: "1",
            currency_id: "1",
            period: "1",
            quantity: "1",
          }),
        });
      expect((await create()).status).toBe(500);
      const list = await fetch(`${url}${API_PREFIX}/vehicles/extras/list?locale_id=40`, {
        headers: { authorization: `Bearer ${KEY_1001}` },
      });
      expect(((await list.json()) as { total: number }).total).toBe(3);
    });
  });

  it("latencyMs delays answers; close() does not wait for a pending delay", async () => {
    const { sb } = await start({ latencyMs: 60_000 });
    const pending = currencies(sb.url).then(
      (r) => r.status,
      () => "aborted",
    );
    await new Promise((r) => setTimeout(r, 20)); // let the request arrive
    await sb.close();
    expect(await pending).toBe("aborted");
    await withSandbox({ latencyMs: 5 }, async ({ url }) => {
      expect((await currencies(url)).status).toBe(200);
    });
  });
});
