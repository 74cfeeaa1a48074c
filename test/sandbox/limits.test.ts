import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/operations.js";
import { MAX_FORM_BODY_BYTES, MAX_UPLOAD_BODY_BYTES } from "../../src/sandbox/request.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { type Api, KEY_1001, start, uploadForm } from "./helpers.js";

let sb: RunningSandbox;
let api: Api;
beforeEach(async () => {
  ({ sb, api } = await start());
});
afterEach(() => sb.close());

const MB = 1024 * 1024;

/**
 * POST `total` bytes to `path` in 64 KiB chunks (respecting back-pressure),
 * with a Content-Length when `declare`, chunked otherwise; stops sending as
 * soon as an answer arrives. Resolves with the status and how much was sent.
 */
function stream(
  path: string,
  contentType: string,
  total: number,
  declare: boolean,
): Promise<{ status: number; body: string; sent: number }> {
  const url = new URL(`${sb.url}${API_PREFIX}/${path}`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY_1001}`,
          "content-type": contentType,
          ...(declare ? { "content-length": total } : { "transfer-encoding": "chunked" }),
        },
      },
      (res) => {
        answered = true;
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
        res.on("error", reject);
      },
    );
    req.on("error", (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = (): void => {
      while (!answered && sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once("drain", pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

describe("request body caps", () => {
  it("a 50 MB form body with its Content-Length: 413 before one byte of it is buffered", async () => {
    const r = await stream("vehicles/extras/switch", "application/x-www-form-urlencoded", 50 * MB, true);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).errors).toEqual({ message: "payload too large", code: 413 });
    expect(sb.bodyStats()).toEqual({ peakBufferedBytes: 0, refused: 1 });
    expect(r.sent).toBeLessThan(50 * MB);
  });

  it("a 50 MB chunked upload (no length given): 413 once the count passes the cap; never more than the cap held", async () => {
    const r = await stream("vehicles/upload", "multipart/form-data; boundary=x", 50 * MB, false);
    expect(r.status).toBe(413);
    const stats = sb.bodyStats();
    expect(stats.refused).toBe(1);
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(MAX_UPLOAD_BODY_BYTES);
    expect(r.sent).toBeLessThan(50 * MB);
  });

  it("a chunked form body past 1 MiB: 413; the server keeps serving", async () => {
    const r = await stream("vehicles/extras/switch", "application/x-www-form-urlencoded", 3 * MB, false);
    expect(r.status).toBe(413);
    expect(sb.bodyStats().peakBufferedBytes).toBeLessThanOrEqual(MAX_FORM_BODY_BYTES);
    expect((await api.post("vehicles/extras/switch", { extra_id: 1 })).status).toBe(200);
  });

  it("bodies under the caps are read as before: 10 photos of 1 MiB upload, a form just under 1 MiB is parsed", async () => {
    const fd = uploadForm(1001, 0);
    for (let i = 0; i < 10; i++)
      fd.append("file", new Blob([Buffer.alloc(MB, i)], { type: "image/jpeg" }), `p${i}.jpg`);
    const up = await api.multipart("vehicles/upload", fd);
    expect(up.status, up.text).toBe(200);
    const form = await api.post(
      "vehicles/extras/switch",
      new URLSearchParams({ extra_id: "1", pad: "x".repeat(MAX_FORM_BODY_BYTES - 100) }),
    );
    expect(form.status).toBe(400); // parsed: `pad` is not a member of the operation
    expect(form.body.errors.fields).toHaveProperty("pad");
    expect(sb.bodyStats().refused).toBe(0);
  });
});
