import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BASE_DELAY_MS,
  backoffDelay,
  isRetryableStatus,
  MAX_ATTEMPTS,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  shouldRetry,
} from "../../src/api/retry.js";

describe("retry policy constants", () => {
  it("three attempts in all, 250 ms base, 4 s backoff cap, 10 s Retry-After cap", () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect(BASE_DELAY_MS).toBe(250);
    expect(MAX_BACKOFF_MS).toBe(4000);
    expect(MAX_RETRY_AFTER_MS).toBe(10_000);
  });
});

describe("isRetryableStatus", () => {
  it.each([408, 429, 500, 501, 502, 503, 504, 599])("%i is retryable", (s) => {
    expect(isRetryableStatus(s)).toBe(true);
  });
  it.each([200, 201, 301, 400, 401, 403, 404, 409, 422])("%i is not", (s) => {
    expect(isRetryableStatus(s)).toBe(false);
  });
});

describe("shouldRetry", () => {
  it("GET retries 408, 429 and 5xx on attempts 1 and 2, never on the 3rd", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) {
      expect(shouldRetry("GET", { status }, 1)).toBe(true);
      expect(shouldRetry("GET", { status }, 2)).toBe(true);
      expect(shouldRetry("GET", { status }, 3)).toBe(false);
    }
  });

  it("the method name is case-insensitive and HEAD behaves like GET", () => {
    expect(shouldRetry("get", { status: 503 }, 1)).toBe(true);
    expect(shouldRetry("HEAD", { status: 503 }, 1)).toBe(true);
  });

  it("GET does not retry client errors", () => {
    for (const status of [400, 401, 403, 404]) expect(shouldRetry("GET", { status }, 1)).toBe(false);
  });

  it("GET retries any network error and timeouts, until the 3rd attempt", () => {
    expect(shouldRetry("GET", { error: { code: "ECONNRESET" } }, 1)).toBe(true);
    expect(shouldRetry("GET", { error: { timeout: true } }, 2)).toBe(true);
    expect(shouldRetry("GET", { error: {} }, 1)).toBe(true);
    expect(shouldRetry("GET", { error: { code: "ECONNRESET" } }, 3)).toBe(false);
  });

  it("POST is never retried on a status", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(shouldRetry("POST", { status }, 1)).toBe(false);
  });

  it("POST is not retried on errors that may have reached the server", () => {
    for (const code of ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]) {
      expect(shouldRetry("POST", { error: { code } }, 1)).toBe(false);
    }
    expect(shouldRetry("POST", { error: { timeout: true } }, 1)).toBe(false);
    expect(shouldRetry("POST", { error: {} }, 1)).toBe(false);
  });

  it("POST is retried only when the connection was never made (nothing sent)", () => {
    for (const code of [
      "ECONNREFUSED",
      "UND_ERR_CONNECT_TIMEOUT",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
    ]) {
      expect(shouldRetry("POST", { error: { code } }, 1)).toBe(true);
      expect(shouldRetry("post", { error: { code } }, 2)).toBe(true);
      expect(shouldRetry("POST", { error: { code } }, 3)).toBe(false);
    }
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it("absent or blank → undefined", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("", now)).toBeUndefined();
  });

  it("delta seconds → milliseconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter(" 120 ", now)).toBe(120_000);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });

  it("an HTTP date → the time until then", () => {
    expect(parseRetryAfter("Thu, 01 Jan 2026 12:00:07 GMT", now)).toBe(7000);
    // obsolete RFC 850 and asctime forms are accepted too
    expect(parseRetryAfter("Thursday, 01-Jan-26 12:00:05 GMT", now)).toBe(5000);
  });

  it("a date in the past → 0", () => {
    expect(parseRetryAfter("Wed, 31 Dec 2025 12:00:00 GMT", now)).toBe(0);
  });

  it.each(["soon", "-5", "5 minutes", "1 2", "abc 1", "NaN"])("unreadable %j → undefined", (v) => {
    expect(parseRetryAfter(v, now)).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  it("grows exponentially from 250 ms (upper bound with random → 1)", () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, top)).toBe(250);
    expect(backoffDelay(2, top)).toBe(500);
    expect(backoffDelay(3, top)).toBe(1000);
    expect(backoffDelay(4, top)).toBe(2000);
    expect(backoffDelay(5, top)).toBe(4000);
    expect(backoffDelay(6, top)).toBe(4000);
    expect(backoffDelay(20, top)).toBe(4000);
  });

  it("jitter keeps at least half the step", () => {
    const zero = () => 0;
    expect(backoffDelay(1, zero)).toBe(125);
    expect(backoffDelay(2, zero)).toBe(250);
    expect(backoffDelay(10, zero)).toBe(2000);
    expect(backoffDelay(2, () => 0.5)).toBe(375);
  });

  it("stays within [step/2, step] for any random value (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const step = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
          const d = backoffDelay(attempt, () => r);
          expect(d).toBeGreaterThanOrEqual(step / 2);
          expect(d).toBeLessThanOrEqual(step);
        },
      ),
    );
  });

  it("Retry-After takes precedence over backoff and is capped at 10 s", () => {
    const never = () => {
      throw new Error("random must not be used when Retry-After is given");
    };
    expect(backoffDelay(1, never, 2000)).toBe(2000);
    expect(backoffDelay(1, never, 0)).toBe(0);
    expect(backoffDelay(2, never, 60_000)).toBe(10_000);
  });
});
