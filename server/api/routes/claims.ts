import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';
import { MAX_PAYMENT_EXPIRATION, MIN_PAYMENT_EXPIRATION, setPaymentExpirationTime } from '../auth/payment-claim';

export interface ClaimsRoutesOptions {
  /**
   * Shared secret of internal callers (INTERNAL_API_TOKEN, ≥ 32 characters), sent as
   * `X-Internal-Token`. Without it the internal routes answer 404: they do not exist.
   */
  internalToken?: string;
}

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const MIN_INTERNAL_TOKEN_LENGTH = 32;

const digest = (v: string) => createHash('sha256').update(v).digest();

function checkInternalCaller(request: FastifyRequest, secret: string): void {
  const given = request.headers[INTERNAL_TOKEN_HEADER];
  if (typeof given !== 'string' || !given) throw new ApiError('unauthorized');
  // Compare digests: constant time, whatever the lengths.
  if (!timingSafeEqual(digest(given), digest(secret))) throw new ApiError('forbidden');
}

/**
 * PUT /internal/v1/users/:uid/payment-expiration-time — the server-side setter of the
 * paymentExpirationTime claim (spec section 6: only the server sets it), for the payment
 * service and operators. Browsers' ID tokens are not accepted here; the internal secret is.
 */
export default async function claimsRoutes(app: FastifyInstance, options: ClaimsRoutesOptions): Promise<void> {
  const secret = options.internalToken?.trim();
  if (!secret) return;
  if (secret.length < MIN_INTERNAL_TOKEN_LENGTH) throw new Error(`INTERNAL_API_TOKEN must be at least ${MIN_INTERNAL_TOKEN_LENGTH} characters`);

  app.put<{ Params: { uid: string }; Body: { paymentExpirationTime: number | null } }>(
    '/internal/v1/users/:uid/payment-expiration-time',
    {
      onRequest: async (request) => checkInternalCaller(request, secret),
      schema: {
        params: {
          type: 'object',
          required: ['uid'],
          additionalProperties: false,
          properties: { uid: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' } },
        },
        body: {
          type: 'object',
          required: ['paymentExpirationTime'],
          additionalProperties: false,
          properties: {
            paymentExpirationTime: { anyOf: [{ type: 'integer', minimum: MIN_PAYMENT_EXPIRATION, maximum: MAX_PAYMENT_EXPIRATION }, { type: 'null' }] },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'uid', 'paymentExpirationTime'],
            additionalProperties: false,
            properties: {
              status: { type: 'string', enum: ['ok'] },
              uid: { type: 'string' },
              paymentExpirationTime: { type: ['integer', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const value = await setPaymentExpirationTime(app.firebaseAuth, request.params.uid, request.body.paymentExpirationTime);
      request.log.info({ uid: request.params.uid, paymentExpirationTime: value }, 'paymentExpirationTime set');
      return { status: 'ok' as const, uid: request.params.uid, paymentExpirationTime: value };
    },
  );
}
