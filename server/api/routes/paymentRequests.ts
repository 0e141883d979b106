/**
 * POST /internal/v1/payment-requests: what the payment-invokePaymentRequest Firebase function
 * calls (/work/notes/issue9-plan.md): `{ uid, email, method: "updateEmail", requestId }` with
 * `X-Internal-Token: <INTERNAL_API_TOKEN>` (constant-time check, shared with routes/claims.ts).
 * Answers `{ status: "ok", result: { customerId, email } }`; the function returns `result` to the
 * browser. Idempotent by requestId (services/payments/requests.ts). Without INTERNAL_API_TOKEN
 * the route does not exist (404), like the claim route.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PaymentRequestAnswer, PaymentRequestBody } from '../../../lib/api-types/schemas/payments';
import { AnyQuery, errorResponses } from '../schemas';
import { checkInternalCaller, internalSecret } from './claims';

const paymentRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secret = internalSecret(app.config.payments.internalToken);
  if (!secret) return;

  app.post(
    '/internal/v1/payment-requests',
    {
      onRequest: async (request) => checkInternalCaller(request, secret),
      schema: { querystring: AnyQuery, body: PaymentRequestBody, response: { 200: PaymentRequestAnswer, ...errorResponses } },
    },
    async (request) => {
      const result = await app.subscriptions.paymentRequest(request.body);
      request.log.info({ uid: request.body.uid, method: request.body.method }, 'payment request answered');
      return { status: 'ok' as const, result };
    },
  );
};

export default paymentRequestRoutes;
