/** Errors that came back from (or on the way to) the API: HTTP statuses, network, malformed bodies. */
import { EXIT, RentctlError } from "../base/errors.js";

/**
 * What an API error suggests, in the words of the front end that shows it: the CLI names its
 * commands, flags and variables; the library names createClient's options (`LIBRARY_HINTS`).
 * One table each; the client (`ClientOptions.hints`) picks.
 */
export interface ApiHints {
  /** No key for an operation that needs one (nothing was sent). */
  missingKey: string;
  /** A key an HTTP header cannot carry (nothing was sent). */
  badKey: string;
  /** 401 / 403. */
  unauthorized: string;
  /** 404: the id named no record. */
  notFound: string;
  /** An attempt ran out of time. */
  timeout: string;
  /** The connection failed. */
  network: string;
}

export const CLI_HINTS: ApiHints = {
  missingKey: "run `rentctl auth login`, set RENTCTL_API_KEY, or use --env sandbox",
  badKey: "set the key itself (RENTCTL_API_KEY, or `rentctl auth login`); nothing was sent",
  unauthorized: "check the API key (`rentctl auth status`) and that --user matches the key's owner",
  notFound: "check the id: `rentctl vehicle list` and `rentctl extra list` show the account's",
  timeout: "raise --timeout or check the base address",
  network: "check the base address (--base-url) and your connection",
};

export const LIBRARY_HINTS: ApiHints = {
  missingKey: "pass apiKey to createClient",
  badKey: "pass the key itself as createClient's apiKey; nothing was sent",
  unauthorized: "check createClient's apiKey, and that its userId is the key's owner",
  notFound: "check the id: client.vehicles.list() and client.extras.list() give the account's",
  timeout: "raise createClient's timeout (milliseconds) or check its baseUrl",
  network: "check createClient's baseUrl and the connection",
};

/** The same, for an assistant calling `rentctl mcp`'s tools: the tools' names, the server's start-up configuration. */
export const TOOL_HINTS: ApiHints = {
  missingKey: "the MCP server has no API key: start it with RENTCTL_API_KEY set, or with a profile that has one",
  badKey:
    "the MCP server's API key has characters a key cannot have: fix it where the server is configured; nothing was sent",
  unauthorized: "the API refused the MCP server's key: check the key and owner it was started with",
  notFound: "check the id: list_vehicles and list_extras give the account's",
  timeout: "the API did not answer in time: try again, or start the server with a longer --timeout",
  network: "the API cannot be reached: check the server's base address (RENTCTL_BASE_URL) and the connection",
};

/**
 * The hint of an error in a front end's words: an API error names which entry of the tables above
 * it suggests (`suggests`), so a front end other than the client's own words it from its table.
 */
export function hintIn(e: RentctlError, hints: ApiHints): string | undefined {
  return e instanceof ApiError && e.suggests ? hints[e.suggests] : e.hint;
}

/**
 * Errors that came back from (or on the way to) the API. The client sets `method` and `path` on
 * every one it throws for a request, and `operation` (the contract's id, e.g. `vehicles.get`)
 * when the request is an operation of the contract.
 */
export class ApiError extends RentctlError {
  status?: number;
  /** The decoded error body, for `--raw` and json output. */
  body?: unknown;
  /** The request's HTTP method. */
  method?: string;
  /** The request's path (with `/api/v302`, without the query). */
  path?: string;
  /** The contract operation (`vehicles.get`, `catalog.currencies`), when the request is one. */
  operation?: string;
  /** A write whose answer never arrived: it may have been applied. */
  answerLost?: boolean;
  /** Which hint of a front end's table (CLI_HINTS, LIBRARY_HINTS, TOOL_HINTS) `hint` is. */
  suggests?: keyof ApiHints;
}

export class ApiValidationError extends ApiError {
  override readonly exitCode: number = EXIT.rejected;
  override readonly kind: string = "rejected";
}

export class AuthError extends ApiError {
  override readonly exitCode: number = EXIT.auth;
  override readonly kind: string = "unauthorized";
}

/** No key or no environment configured (nothing was sent). */
export class NotConfiguredError extends AuthError {
  override readonly kind: string = "not_configured";
}

export class NotFoundError extends ApiError {
  override readonly exitCode: number = EXIT.notFound;
  override readonly kind: string = "not_found";
}

/** Network failure, timeout, 5xx, or a malformed response. */
export class ServerError extends ApiError {
  override readonly exitCode: number = EXIT.network;
  override readonly kind: string = "server";
}

export class NetworkError extends ApiError {
  override readonly exitCode: number = EXIT.network;
  override readonly kind: string = "network";
}

export class TimeoutError extends NetworkError {
  override readonly kind: string = "timeout";
}

export class MalformedResponseError extends ApiError {
  override readonly exitCode: number = EXIT.network;
  override readonly kind: string = "malformed_response";
}
