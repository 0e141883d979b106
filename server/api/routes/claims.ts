/**
 * PUT /internal/v1/users/:uid/payment-expiration-time — the server-side setter of the
 * paymentExpirationTime claim (spec section 6: only the server sets it), for the payment
 * service and operators. Browsers' ID tokens are not accepted here; the internal secret
 * (INTERNAL_API_TOKEN, sent as X-Internal-Token, compared in constant time) is.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { closed, okAnswer } from '../../../lib/api-types/schemas/common';
import { secretMatches } from '../../shared/secret';
import { MAX_PAYMENT_EXPIRATION, MIN_PAYMENT_EXPIRATION, setPaymentExpirationTime } from '../auth/payment-claim';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';

export interface ClaimsRoutesOptions {
  /**
   * Shared secret of internal callers (INTERNAL_API_TOKEN, ≥ 32 characters), sent as
   * `X-Internal-Token`. Without it the internal routes answer 404: they do not exist.
   */
  internalToken?: string;
}

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const MIN_INTERNAL_TOKEN_LENGTH = 32;

const UserParams = closed({ uid: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });
const PaymentExpirationBody = closed({
  paymentExpirationTime: Type.Union([Type.Integer({ minimum: MIN_PAYMENT_EXPIRATION, maximum: MAX_PAYMENT_EXPIRATION }), Type.Null()]),
});
const PaymentExpirationAnswer = okAnswer({ uid: Type.String(), paymentExpirationTime: Type.Union([Type.Integer(), Type.Null()]) });

/** No token: 401; a wrong one: 403. (Also the payment-request route's check.) */
export function checkInternalCaller(request: FastifyRequest, secret: string): void {
  const given = request.headers[INTERNAL_TOKEN_HEADER];
  if (typeof given !== 'string' || !given) throw new ApiError('unauthorized');
  if (!secretMatches(given, secret)) throw new ApiError('forbidden');
}

/** The internal token, trimmed; undefined when unset (the internal routes then do not exist). Too short: the start fails. */
export function internalSecret(token: string | undefined): string | undefined {
  const secret = token?.trim();
  if (!secret) return undefined;
  if (secret.length < MIN_INTERNAL_TOKEN_LENGTH) throw new Error(`INTERNAL_API_TOKEN must be at least ${MIN_INTERNAL_TOKEN_LENGTH} characters`);
  return secret;
}

const claimsRoutes: FastifyPluginAsyncTypebox<ClaimsRoutesOptions> = async (app, options) => {
  const secret = internalSecret(options.internalToken);
  if (!secret) return;

  app.put(
    '/internal/v1/users/:uid/payment-expiration-time',
    {
      onRequest: async (request) => checkInternalCaller(request, secret),
      schema: { params: UserParams, body: PaymentExpirationBody, response: { 200: PaymentExpirationAnswer, ...errorResponses } },
    },
    async (request) => {
      const { uid } = request.params;
      const value = await setPaymentExpirationTime(app.firebaseAuth, uid, request.body.paymentExpirationTime);
      request.log.info({ uid, paymentExpirationTime: value }, 'paymentExpirationTime set');
      return { status: 'ok' as const, uid, paymentExpirationTime: value };
    },
  );
};

export default claimsRoutes;
