/** Errors that came back from (or on the way to) the API: HTTP statuses, network, malformed bodies. */
import { EXIT, RentctlError } from "../errors.js";

/** Errors that came back from (or on the way to) the API. */
export class ApiError extends RentctlError {
  status?: number;
  /** The decoded error body, for `--raw` and json output. */
  body?: unknown;
  method?: string;
  path?: string;
  /** A write whose answer never arrived: it may have been applied. */
  answerLost?: boolean;
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
