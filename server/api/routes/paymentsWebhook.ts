/**
 * POST /v1/payments/webhook: the payment processor's signed events (no user auth; the
 * Stripe-Signature header over the raw body is the authentication). JSON bodies are kept as raw
 * bytes in this plugin only (the signature covers the exact bytes), then
 * services/payments/webhooks.ts verifies, dedupes by event id and re-reads the subscription from
 * the processor. A bad or missing signature: 400 invalid_request, nothing changed. 2xx tells the
 * processor to stop retrying; a failure on our side is 5xx, and the event comes again.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { okAnswer } from '../../../lib/api-types/schemas/common';
import { SIGNATURE_HEADER } from '../../payments/signature';
import { ApiError } from '../errors';
import { AnyQuery, errorResponses } from '../schemas';
import { BAD_SIGNATURE } from '../services/payments/webhooks';

const WebhookAnswer = okAnswer({ duplicate: Type.Boolean() });

/** Stripe's events stay well under this (a subscription with its items and invoice). */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

const paymentsWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Encapsulated: only this plugin's routes read JSON as raw bytes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/v1/payments/webhook',
    { bodyLimit: WEBHOOK_BODY_LIMIT, schema: { querystring: AnyQuery, response: { 200: WebhookAnswer, ...errorResponses } } },
    async (request) => {
      if (!Buffer.isBuffer(request.body)) throw new ApiError('invalid_request', BAD_SIGNATURE);
      const outcome = await app.subscriptions.handleWebhook(request.body, request.headers[SIGNATURE_HEADER]);
      return { status: 'ok' as const, duplicate: outcome.duplicate };
    },
  );
};

export default paymentsWebhookRoutes;
