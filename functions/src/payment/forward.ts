/**
 * The function's one call to our api (issue 9 plan, "Contract between the function and the api"):
 *   POST {API_INTERNAL_URL}/internal/v1/payment-requests
 *   x-internal-token: <INTERNAL_API_TOKEN>
 *   { uid, email, method, requestId }  →  { status: 'ok', result: { customerId, email } }
 * The api does the work and the idempotency (the requestId is stored in PostgreSQL); this side
 * only forwards and turns the api's typed errors (lib/api-types/errors.ts) into HttpsError codes
 * with Japanese messages. Our own misconfiguration (token refused, route missing) is logged and
 * shown to the user as a plain 'internal' error: the browser never learns about the token.
 */
import * as logger from 'firebase-functions/logger';
import { HttpsError, type FunctionsErrorCode } from 'firebase-functions/v2/https';
import { isApiErrorResponse, type ApiErrorResponse } from '../../../lib/api-types/errors';
import type { ApiTarget } from '../config';
import { MESSAGES } from '../messages';
import type { PaymentCaller, PaymentPayload } from './request';

export const PAYMENT_REQUESTS_PATH = '/internal/v1/payment-requests';
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
/** The api asks the processor: allow it a while, but answer before the callable's own timeout. */
export const FORWARD_TIMEOUT_MS = 20_000;

/** What the browser receives as the callable's data. */
export interface PaymentRequestResult {
  customerId: string;
  email: string;
}

/** The api's error code → the callable's code and message (the api's own message when it is for the user). */
const BY_API_CODE: Record<string, { code: FunctionsErrorCode; message?: string; useApiMessage?: boolean }> = {
  invalid_request: { code: 'invalid-argument', message: MESSAGES.invalidData },
  payment_request_conflict: { code: 'already-exists', message: MESSAGES.requestConflict, useApiMessage: true },
  idempotency_conflict: { code: 'aborted', message: MESSAGES.inProgress, useApiMessage: true },
  user_disabled: { code: 'permission-denied', useApiMessage: true },
  rate_limited: { code: 'resource-exhausted', message: MESSAGES.rateLimited },
  service_unavailable: { code: 'unavailable', message: MESSAGES.unavailable },
};

/** Codes that mean our side is misconfigured (token, route): never the user's doing. */
const CONFIGURATION_CODES = new Set(['unauthorized', 'forbidden', 'not_found']);

function toHttpsError(status: number, body: unknown, context: Record<string, unknown>): HttpsError {
  if (isApiErrorResponse(body)) {
    const { code, message } = (body as ApiErrorResponse).error;
    const mapped = BY_API_CODE[code];
    if (mapped) {
      logger.warn('payment request refused by the api', { ...context, status, apiCode: code });
      return new HttpsError(mapped.code, (mapped.useApiMessage && message) || mapped.message || message, { code });
    }
    if (CONFIGURATION_CODES.has(code)) {
      logger.error('the api refused the function (check INTERNAL_API_TOKEN and API_INTERNAL_URL)', { ...context, status, apiCode: code });
      return new HttpsError('internal', MESSAGES.internal);
    }
    if (status >= 400 && status < 500) {
      // A typed refusal we do not map one by one (e.g. a payment error): the api's message is for the user.
      logger.warn('payment request refused by the api', { ...context, status, apiCode: code });
      return new HttpsError('failed-precondition', message || MESSAGES.internal, { code });
    }
    logger.error('the api failed on a payment request', { ...context, status, apiCode: code });
    return new HttpsError(status === 503 ? 'unavailable' : 'internal', status === 503 ? MESSAGES.unavailable : MESSAGES.internal);
  }
  logger.error('unexpected answer from the api', { ...context, status });
  return [502, 503, 504].includes(status) ? new HttpsError('unavailable', MESSAGES.unavailable) : new HttpsError('internal', MESSAGES.internal);
}

function resultOf(body: unknown): PaymentRequestResult | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { status, result } = body as { status?: unknown; result?: unknown };
  if (status !== 'ok' || typeof result !== 'object' || result === null) return undefined;
  const { customerId, email } = result as { customerId?: unknown; email?: unknown };
  if (typeof customerId !== 'string' || !customerId || typeof email !== 'string') return undefined;
  return { customerId, email };
}

/** Sends the request to the api; resolves with its result or rejects with an HttpsError. */
export async function forwardPaymentRequest(
  target: ApiTarget,
  caller: PaymentCaller,
  payload: PaymentPayload,
  timeoutMs = FORWARD_TIMEOUT_MS,
): Promise<PaymentRequestResult> {
  const context = { uid: caller.uid, method: payload.method, requestId: payload.requestId };
  let response: Response;
  try {
    response = await fetch(`${target.baseUrl}${PAYMENT_REQUESTS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', [INTERNAL_TOKEN_HEADER]: target.token },
      body: JSON.stringify({ uid: caller.uid, email: caller.email, method: payload.method, requestId: payload.requestId }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    logger.error('cannot reach the api', { ...context, reason });
    throw new HttpsError('unavailable', MESSAGES.unavailable);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const result = resultOf(body);
    if (result) return result;
    logger.error('the api answered a payment request without a result', { ...context, status: response.status });
    throw new HttpsError('internal', MESSAGES.internal);
  }
  throw toHttpsError(response.status, body, context);
}
