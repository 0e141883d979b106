/**
 * The api's typed errors: ApiError (throw it from a route, hook or service), the HTTP status of
 * each code of lib/api-types/errors.ts, and the error envelope's body. plugins/errors.ts sends it.
 */
import {
  API_ERROR_MESSAGES,
  type ApiErrorCode,
  type ApiErrorResponse,
} from '../../lib/api-types/errors';

/** HTTP status of each error code. A `Record`, so adding a code without a status fails typecheck. */
export const ERROR_HTTP_STATUS: Record<ApiErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  token_invalid: 401,
  token_expired: 401,
  token_revoked: 401,
  user_disabled: 401,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  service_unavailable: 503,
  internal: 500,
  game_not_found: 404,
  session_not_found: 404,
  instance_limit: 409,
  verified_required: 403,
  no_capacity: 503,
  session_not_ready: 409,
  session_closed: 409,
  screenshot_not_found: 404,
  host_not_found: 404,
  article_not_found: 404,
  bookmark_not_found: 404,
};

/**
 * Throw this from a route, hook or service to answer with a typed error. The message must be
 * safe to show to a user; put details for us in `cause` (logged, never sent).
 */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly statusCode: number;

  constructor(code: ApiErrorCode, message: string = API_ERROR_MESSAGES[code], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = ERROR_HTTP_STATUS[code];
  }
}

export function errorBody(code: ApiErrorCode, message: string = API_ERROR_MESSAGES[code]): ApiErrorResponse {
  return { status: 'error', error: { code, message } };
}
