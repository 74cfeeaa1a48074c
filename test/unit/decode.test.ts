import { describe, expect, it } from "vitest";
import { decodeEnvelope, decodeErrorBody, errorFor, parseJson } from "../../src/api/decode.js";
import {
  ApiValidationError,
  AuthError,
  MalformedResponseError,
  NotFoundError,
  ServerError,
} from "../../src/api/errors.js";
import { EXIT } from "../../src/base/errors.js";

const META = { method: "GET", path: "/api/v302/currencies", vars: {}, api_version: 302 };

describe("parseJson", () => {
  it("returns undefined for an empty or blank body", () => {
    expect(parseJson("")).toBeUndefined();
    expect(parseJson("  \n")).toBeUndefined();
  });
  it("parses JSON and throws on anything else", () => {
    expect(parseJson('{"a":1}')).toEqual({ a: 1 });
    expect(() => parseJson("<html>")).toThrow(SyntaxError);
  });
});

describe("decodeEnvelope", () => {
  it("list: returns the items and drops meta", () => {
    const body = { meta: META, list: [{ id: 1, code: "EUR" }], extra: "kept" };
    const d = decodeEnvelope("list", body);
    expect(d).toEqual({ kind: "list", items: [{ id: 1, code: "EUR" }], body: { list: body.list, extra: "kept" } });
  });

  it("list: keeps meta when raw", () => {
    const d = decodeEnvelope("list", { meta: META, list: [] }, true);
    expect(d.body).toHaveProperty("meta");
  });

  it("list: accepts `data` when `list` is absent and wraps scalars", () => {
    const d = decodeEnvelope("list", { data: [{ id: 2 }, 2021] });
    expect(d.kind === "list" && d.items).toEqual([{ id: 2 }, { value: 2021 }]);
  });

  it("list: missing `list` is a malformed response (exit 6)", () => {
    expect(() => decodeEnvelope("list", { meta: META })).toThrow(MalformedResponseError);
    expect(() => decodeEnvelope("list", { list: "nope" })).toThrow(/`list` array/);
    try {
      decodeEnvelope("list", {});
    } catch (e) {
      expect((e as MalformedResponseError).exitCode).toBe(EXIT.network);
    }
  });

  it("paginated: reads items and every pagination member, numeric strings included", () => {
    const d = decodeEnvelope("paginated", {
      meta: META,
      data: [{ id: 1 }, { id: 2 }],
      total: "98",
      per_page: 15,
      current_page: "2",
      limit: "15",
      last_page: 7,
    });
    expect(d.kind).toBe("paginated");
    if (d.kind !== "paginated") return;
    expect(d.page).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      total: 98,
      perPage: 15,
      currentPage: 2,
      limit: 15,
      lastPage: 7,
    });
    expect(d.body).not.toHaveProperty("meta");
  });

  it("paginated: ignores unreadable pagination members instead of inventing numbers", () => {
    const d = decodeEnvelope("paginated", { data: [], total: "many", per_page: -1, current_page: null });
    expect(d.kind === "paginated" && d.page).toEqual({ items: [] });
  });

  it("paginated: missing `data` is a malformed response", () => {
    expect(() => decodeEnvelope("paginated", { total: 3 })).toThrow(MalformedResponseError);
    expect(() => decodeEnvelope("paginated", { total: 3 })).toThrow(/`data` array/);
  });

  it("flexible: any object, meta dropped, other members kept", () => {
    expect(decodeEnvelope("flexible", { meta: META, is_success: true, data: { id: 4 } })).toEqual({
      kind: "flexible",
      body: { is_success: true, data: { id: 4 } },
    });
  });

  it.each([
    [[1, 2], /an array/],
    [null, /null/],
    ["text", /a string/],
    [undefined, /an empty body/],
  ])("a non-object body (%j) is malformed", (body, msg) => {
    expect(() => decodeEnvelope("flexible", body)).toThrow(MalformedResponseError);
    expect(() => decodeEnvelope("flexible", body)).toThrow(msg);
  });
});

describe("decodeErrorBody", () => {
  it("errors object: message, code and `fields` details", () => {
    const r = decodeErrorBody({
      is_success: false,
      errors: {
        message: "validation error",
        code: 400,
        fields: { price_per_day: ["must be at least 0"], vehicle_vin: ["too long", "bad checksum"] },
      },
    });
    expect(r).toEqual({
      message: "validation error",
      code: 400,
      details: [
        { field: "price_per_day", message: "must be at least 0" },
        { field: "vehicle_vin", message: "too long" },
        { field: "vehicle_vin", message: "bad checksum" },
      ],
    });
  });

  it("errors object: other members become field details, nested ones with dotted names", () => {
    const r = decodeErrorBody({ errors: { message: "bad", code: "400", user_id: "is required", nested: { a: "x" } } });
    expect(r.message).toBe("bad");
    expect(r.code).toBe(400);
    expect(r.details).toEqual([
      { field: "user_id", message: "is required" },
      { field: "nested.a", message: "x" },
    ]);
  });

  it("errors as an array of strings", () => {
    expect(decodeErrorBody({ errors: ["first", "second"] })).toEqual({
      message: undefined,
      code: undefined,
      details: [
        { field: "", message: "first" },
        { field: "", message: "second" },
      ],
    });
  });

  it("a single unnamed error becomes the headline", () => {
    expect(decodeErrorBody({ errors: ["only one"] })).toEqual({ message: "only one", code: undefined, details: [] });
  });

  it("errors as an array of objects with field/name and message", () => {
    const r = decodeErrorBody({
      errors: [{ field: "limit", message: "must be >= 1" }, { name: "offset", message: "must be >= 0" }, { odd: 1 }],
    });
    expect(r.details).toEqual([
      { field: "limit", message: "must be >= 1" },
      { field: "offset", message: "must be >= 0" },
      { field: "", message: '{"odd":1}' },
    ]);
  });

  it("errors as a string", () => {
    expect(decodeErrorBody({ is_success: false, errors: "unauthorized" })).toEqual({
      message: "unauthorized",
      code: undefined,
      details: [],
    });
  });

  it("a bare message", () => {
    expect(decodeErrorBody({ message: "Not Found" }).message).toBe("Not Found");
  });

  it("the errors message wins over a bare message", () => {
    expect(decodeErrorBody({ message: "outer", errors: { message: "inner" } }).message).toBe("inner");
  });

  it("empty and non-JSON bodies", () => {
    expect(decodeErrorBody(undefined)).toEqual({ details: [] });
    expect(decodeErrorBody(null)).toEqual({ details: [] });
    expect(decodeErrorBody("")).toEqual({ message: undefined, details: [] });
    expect(decodeErrorBody("  Bad Gateway \n")).toEqual({ message: "Bad Gateway", details: [] });
    expect(decodeErrorBody({})).toEqual({ message: undefined, code: undefined, details: [] });
  });
});

describe("errorFor", () => {
  const validation = { is_success: false, errors: { message: "validation error", code: 400, fields: { a: ["b"] } } };

  it("400 → ApiValidationError, exit 3, details and status kept", () => {
    const e = errorFor(400, validation, JSON.stringify(validation));
    expect(e).toBeInstanceOf(ApiValidationError);
    expect(e.exitCode).toBe(3);
    expect(e.message).toBe("request rejected (400): validation error");
    expect(e.details).toEqual([{ field: "a", message: "b" }]);
    expect(e.status).toBe(400);
    expect(e.body).toBe(validation);
  });

  it.each([401, 403])("%i → AuthError, exit 4, with a hint", (status) => {
    const e = errorFor(status, { errors: "invalid token" }, "");
    expect(e).toBeInstanceOf(AuthError);
    expect(e.exitCode).toBe(4);
    expect(e.message).toBe(`not authorized (${status}): invalid token`);
    expect(e.hint).toMatch(/auth status/);
  });

  it("404 → NotFoundError, exit 5, also with an empty body", () => {
    const e = errorFor(404, undefined, "");
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.exitCode).toBe(5);
    expect(e.message).toBe("not found (404)");
  });

  it.each([500, 502, 503, 504, 408, 429])("%i → ServerError, exit 6", (status) => {
    const e = errorFor(status, { errors: { message: "busy" } }, "");
    expect(e).toBeInstanceOf(ServerError);
    expect(e.exitCode).toBe(6);
    expect(e.message).toBe(`server error (${status}): busy`);
  });

  it("an HTML 502 body says so instead of dumping markup", () => {
    const html = "<html>\n<head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    const e = errorFor(502, undefined, html);
    expect(e).toBeInstanceOf(ServerError);
    expect(e.message).toBe("server error (502): non-JSON (HTML) body");
  });

  it("a plain-text 5xx body is quoted, whitespace collapsed and clipped", () => {
    const e = errorFor(503, undefined, `upstream\n  unavailable ${"x".repeat(300)}`);
    expect(e.message.startsWith("server error (503): upstream unavailable x")).toBe(true);
    expect(e.message.length).toBeLessThanOrEqual("server error (503): ".length + 120);
  });

  it("a 200 with is_success false → ApiValidationError (exit 3)", () => {
    const e = errorFor(200, { is_success: false, errors: "nope" }, "");
    expect(e).toBeInstanceOf(ApiValidationError);
    expect(e.exitCode).toBe(3);
    expect(e.message).toBe("request rejected (200, is_success false): nope");
  });

  it("other 4xx → ApiValidationError", () => {
    const e = errorFor(422, {}, "{}");
    expect(e).toBeInstanceOf(ApiValidationError);
    expect(e.message).toBe("request rejected (422)");
  });
});
