/**
 * The one error envelope of our HTTP servers, as a server sends it: `{ status: "error", error:
 * { code, message } }` with the codes and Japanese messages of lib/api-types/errors.ts. Here live
 * the pieces every Fastify server needs to answer with it: the HTTP status of each code, the
 * typed error to throw, the body, the response schemas and the code of a failure Fastify itself
 * raised. The game host's agent (server/host/routes/errors.ts) and the api (server/api/errors.ts,
 * plugins/errors.ts, schemas.ts) both answer with these.
 *
 * Also the answers to requests that never reach a route or the error handler, passed to the
 * Fastify constructor (`envelopeServerOptions`): a URL the router cannot decode, a path
 * parameter over the router's length limit (`frameworkErrors`), and what Node's HTTP parser
 * refuses before Fastify sees a request: a malformed request line or header, headers over
 * Node's size limit, a request not received in time (`clientErrorHandler`). They too answer
 * with the envelope and never echo the request.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR_MESSAGES, type ApiErrorCode, type ApiErrorResponse } from '../../lib/api-types/errors';
import { API_ERROR_SCHEMA_ID, type ApiErrorSchema } from '../../lib/api-types/schemas/common';

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
  method_not_allowed: 405,
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
  subscription_required: 403,
  subscription_not_found: 404,
  plan_not_found: 404,
  already_subscribed: 409,
  subscription_inactive: 409,
  card_setup_incomplete: 409,
  card_declined: 402,
  payment_failed: 402,
  idempotency_conflict: 409,
  payment_request_conflict: 409,
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

/** The error envelope by reference: register ApiErrorSchema (lib/api-types/schemas/common) once with app.addSchema. */
const ApiErrorRef = Type.Unsafe<ApiErrorSchema>(Type.Ref(API_ERROR_SCHEMA_ID));

/** Spread into a route's `response` schema: every 4xx and 5xx answer has the error shape. */
export const errorResponses = { '4xx': ApiErrorRef, '5xx': ApiErrorRef };

/**
 * The code of a failure Fastify or a plugin raised itself: schema validation, the body parser
 * (too large, bad JSON, wrong content type) and any other error carrying a status. Anything
 * without a 4xx status is `internal` (a bug: log it, never send its text).
 */
export function frameworkErrorCode(error: FastifyError): ApiErrorCode {
  if (error.validation) return 'invalid_request';
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
  }
  const status = error.statusCode ?? 500;
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'service_unavailable';
  if (status >= 400 && status < 500) return 'invalid_request';
  return 'internal';
}

const CONTEXT_LABEL: Record<string, string> = {
  body: '本文',
  querystring: 'クエリ',
  params: 'パス',
  headers: 'ヘッダー',
};

/**
 * The field names of a schema path: each name after `properties` (`#/properties/stats/type` →
 * `stats`). They come from our schemas, so a message never repeats a key the request made up.
 */
function schemaFieldNames(schemaPath: string | undefined): string[] {
  const segments = (schemaPath ?? '').split('#')[1]?.split('/') ?? [];
  const names: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] === 'properties' && i + 1 < segments.length) {
      names.push(segments[i + 1].replace(/~1/g, '/').replace(/~0/g, '~'));
      i++;
    }
  }
  return names;
}

/**
 * The message of a schema violation: names the offending field as our schema calls it (never
 * ajv's English text, and never the request's own keys or values, which could be anything).
 */
export function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  const context = CONTEXT_LABEL[error.validationContext ?? ''] ?? '';
  const missing = (first?.params as { missingProperty?: unknown } | undefined)?.missingProperty;
  const names = schemaFieldNames(first?.schemaPath);
  if (typeof missing === 'string') names.push(missing);
  const field = names.join('.');
  const where = [context, field.slice(0, 64)].filter(Boolean).join(': ');
  return where ? `リクエストの内容が正しくありません（${where}）。` : API_ERROR_MESSAGES.invalid_request;
}

/**
 * Fastify's `frameworkErrors`: a URL whose path does not decode (FST_ERR_BAD_URL) is 400
 * invalid_request; a path parameter over `routerOptions.maxParamLength` is 404 not_found (no id
 * is that long); anything else is classified like any framework error. Fastify's own answers
 * echoed the path.
 */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code: ApiErrorCode =
    error.code === 'FST_ERR_BAD_URL'
      ? 'invalid_request'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'not_found'
        : frameworkErrorCode(error);
  request.log.info({ code, reason: error.code }, 'request rejected before routing');
  void reply.code(ERROR_HTTP_STATUS[code]).send(errorBody(code));
}

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError'): what the HTTP parser refused (malformed
 * request line or headers, headers over Node's `maxHeaderSize`) is 400 invalid_request; a
 * request not received within the server's timeouts is 408 with the same code. Written straight
 * to the socket (there is no request object yet), then the connection is closed.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  // A reset connection is gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody('invalid_request'));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/**
 * The longest path parameter the router hands to a route (find-my-way's default is 100, and it
 * answered longer ones with its own 414). Longer than any URL Node accepts (its 16 kB header
 * limit), so each route's params schema decides instead: a malformed id answers the route's
 * typed 404 (docs/api.md, "Path parameters, one rule").
 */
export const MAX_PARAM_LENGTH = 16 * 1024;

/** Spread into a Fastify constructor's options: the envelope also for errors raised before routing. */
export const envelopeServerOptions = {
  frameworkErrors: frameworkErrorReply,
  clientErrorHandler,
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
};
