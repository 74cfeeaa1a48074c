import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_PREFIX } from "../../src/contract/operations.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";
import { type Api, envelope, KEY_1001, start } from "./helpers.js";

let sb: RunningSandbox;
let api: Api;
beforeEach(async () => {
  ({ sb, api } = await start({ maxBodyBytes: 4096 }));
});
afterEach(() => sb.close());

const post = (path: string, body: string | Buffer, contentType?: string, key: string | undefined = KEY_1001) =>
  api.as(key).raw(`${API_PREFIX}/${path}`, {
    method: "POST",
    body,
    headers: contentType ? { "content-type": contentType } : {},
  });

describe("routing", () => {
  it("unknown paths -> 404 with the error envelope and meta", async () => {
    for (const path of ["/api/v302/nothing", "/setup", "/api/v301/setup", "/"]) {
      const r = await api.raw(path);
      expect(r.status, path).toBe(404);
      expect(envelope(r.body)).toEqual({ is_success: false, errors: { message: "not found", code: 404 } });
      expect(r.body.meta).toEqual({ method: "GET", path, vars: {}, api_version: 302 });
    }
  });

  it("wrong method -> 405 with Allow", async () => {
    const r = await api.raw(`${API_PREFIX}/vehicles/create?x=1`);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST");
    expect(envelope(r.body)).toEqual({ is_success: false, errors: { message: "method not allowed", code: 405 } });
    expect(r.body.meta).toMatchObject({ method: "GET", path: `${API_PREFIX}/vehicles/create`, vars: { x: "1" } });
    const del = await api.raw(`${API_PREFIX}/setup`, { method: "DELETE" });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET");
  });

  it("odd member names are echoed safely", async () => {
    const r = await api.raw(`${API_PREFIX}/currencies?__proto__=a&__proto__=b&constructor=c&x[]=1`);
    expect(r.status).toBe(200);
    expect(r.body.meta.vars).toEqual(JSON.parse('{"__proto__":["a","b"],"constructor":"c","x":["1"]}'));
  });

  it("a trailing slash is tolerated", async () => {
    expect((await api.raw(`${API_PREFIX}/currencies/`)).status).toBe(200);
  });

  it("meta.vars are the request variables; a POST's query string is ignored", async () => {
    const r = await api.raw(`${API_PREFIX}/vehicles/extras/switch?extra_id=2`, {
      method: "POST",
      body: new URLSearchParams({ extra_id: "1" }),
    });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(1);
    expect(r.body.meta.vars).toEqual({ extra_id: "1" });
  });
});

describe("bad requests never crash the server", () => {
  it("malformed multipart -> 400", async () => {
    const broken = '--xyz\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n1001\r\n--xyz'; // no closing
    const r = await post("vehicles/upload", broken, "multipart/form-data; boundary=xyz");
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors.fields)).toEqual(["body"]);
    expect(r.body.errors.fields.body[0]).toMatch(/malformed multipart/);
    const noBoundary = await post("vehicles/upload", "x", "multipart/form-data");
    expect(envelope(noBoundary.body)).toEqual({
      is_success: false,
      errors: { message: "validation error", code: 400, fields: { body: ["multipart body without a boundary"] } },
    });
  });

  it("JSON or other bodies -> 400 naming the accepted encodings", async () => {
    for (const [body, type] of [
      ['{"extra_id": 1}', "application/json"],
      ["{not json", "application/json"],
      ["extra_id=1", "text/plain"],
    ]) {
      const r = await post("vehicles/extras/switch", body as string, type);
      expect(r.status).toBe(400);
      expect(r.body.errors.fields.body[0]).toMatch(
        /must be application\/x-www-form-urlencoded or multipart\/form-data/,
      );
    }
  });

  it("invalid UTF-8 in a form -> 400", async () => {
    const r = await post(
      "vehicles/extras/switch",
      Buffer.from([0x65, 0x3d, 0xff, 0xfe]),
      "application/x-www-form-urlencoded",
    );
    expect(r.body.errors.fields).toEqual({ body: ["is not valid UTF-8"] });
  });

  it("an unauthenticated malformed request is a 401 (the key is checked first)", async () => {
    const r = await post("vehicles/extras/switch", "{", "application/json", "");
    expect(r.status).toBe(401);
  });

  it("a body over the limit -> 413", async () => {
    const r = await post(
      "vehicles/extras/switch",
      `extra_id=1&pad=${"x".repeat(5000)}`,
      "application/x-www-form-urlencoded",
    );
    expect(r.status).toBe(413);
    expect(envelope(r.body)).toEqual({ is_success: false, errors: { message: "payload too large", code: 413 } });
  });

  it("garbage on the socket and aborted uploads leave the server serving", async () => {
    const { port } = sb;
    await new Promise<void>((resolve) => {
      const s = connect(port, "127.0.0.1", () => s.end("NOT HTTP AT ALL\r\n\r\n"));
      s.on("close", () => resolve());
      s.on("error", () => resolve());
      s.resume();
    });
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        host: "127.0.0.1",
        method: "POST",
        path: `${API_PREFIX}/vehicles/upload`,
        headers: { "content-type": "multipart/form-data; boundary=b", "content-length": "100000" },
      });
      req.on("error", () => resolve());
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\npartial', () => {
        req.destroy();
        resolve();
      });
    });
    expect((await api.get("currencies")).status).toBe(200);
  });

  it("writes nothing to stdout", async () => {
    const spy = vi.spyOn(process.stdout, "write");
    try {
      await api.get("nothing");
      await post("vehicles/extras/switch", "{", "application/json");
      await api.post("vehicles/create", {});
      await api.get("currencies");
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe("lifecycle", () => {
  it("close() ends idle keep-alive connections and frees the port", async () => {
    const { sb: s } = await start();
    const agent = new Agent({ keepAlive: true });
    const socket = await new Promise<import("node:net").Socket>((resolve, reject) => {
      const req = httpRequest({ agent, port: s.port, host: "127.0.0.1", path: `${API_PREFIX}/currencies` }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.socket as import("node:net").Socket));
      });
      req.on("error", reject);
      req.end();
    });
    const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    expect(socket.destroyed).toBe(false); // idle in the agent's pool, kept alive
    await s.close();
    await socketClosed;
    agent.destroy();
    // the same port can be taken again at once
    const again = await startSandbox({ port: s.port, dataFile: null });
    expect(again.port).toBe(s.port);
    await again.close();
  });

  it("close() is idempotent", async () => {
    const { sb: s } = await start();
    await Promise.all([s.close(), s.close()]);
    await s.close();
  });

  it("url, host, port and owners", async () => {
    expect(sb.url).toBe(`http://127.0.0.1:${sb.port}`);
    expect(sb.host).toBe("127.0.0.1");
    expect(sb.owners.map((o) => o.userId)).toEqual([1001, 1002, 1003]);
    expect(sb.owners[0]).toEqual({ userId: 1001, apiKey: "sandbox-key-1001", name: expect.any(String) });
  });

  it("a taken port rejects and leaves nothing open", async () => {
    await expect(startSandbox({ port: sb.port, dataFile: null })).rejects.toMatchObject({ code: "EADDRINUSE" });
  });

  it("bad options are refused", async () => {
    await expect(startSandbox({ port: 0, failRate: 2 })).rejects.toThrow(/failRate/);
    await expect(startSandbox({ port: 70000 })).rejects.toThrow(/port/);
  });

  it("onRequest reports method, path and status, never the key", async () => {
    const seen: unknown[] = [];
    const { sb: s } = await start({ onRequest: (e) => seen.push(e) });
    await fetch(`${s.url}${API_PREFIX}/vehicles/extras/list?locale_id=40`, {
      headers: { authorization: `Bearer ${KEY_1001}` },
    });
    await s.close();
    expect(seen).toEqual([
      { method: "GET", path: `${API_PREFIX}/vehicles/extras/list`, status: 200, ms: expect.any(Number) },
    ]);
    expect(JSON.stringify(seen)).not.toContain(KEY_1001);
  });
});
