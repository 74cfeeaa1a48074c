/**
 * Retry policy, as pure functions so it is tested on its own.
 * - 3 attempts in all.
 * - GET: retried on network errors, timeouts, 408, 429 and 5xx.
 * - POST: never retried once it may have reached the server; only a refused
 *   or timed-out *connection* (nothing was sent) is tried again.
 * - Backoff: exponential from 250 ms with jitter (50-100 % of the step),
 *   capped at 4 s; `Retry-After` (seconds or an HTTP date) is honoured and
 *   capped at 10 s.
 */

export const MAX_ATTEMPTS = 3;
export const BASE_DELAY_MS = 250;
export const MAX_BACKOFF_MS = 4_000;
export const MAX_RETRY_AFTER_MS = 10_000;

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Network error codes that mean the request never left this machine. */
export const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

export type Outcome = { status: number } | { error: { code?: string; timeout?: boolean } };

export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUSES.has(status) || (status >= 500 && status <= 599);
}

export function shouldRetry(method: string, outcome: Outcome, attempt: number, maxAttempts = MAX_ATTEMPTS): boolean {
  if (attempt >= maxAttempts) return false;
  const isGet = method.toUpperCase() === "GET" || method.toUpperCase() === "HEAD";
  if ("status" in outcome) return isGet && isRetryableStatus(outcome.status);
  if (isGet) return true;
  return outcome.error.code !== undefined && NOT_SENT_CODES.has(outcome.error.code);
}

/** Parse Retry-After: delta seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // An HTTP date always names its month; Date.parse alone accepts "-5" or "soon 1" as dates.
  if (!/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\b/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function backoffDelay(attempt: number, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const step = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}
