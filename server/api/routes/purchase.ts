/**
 * The purchase routes of a verified user (docs/purchase.md "Routes"; visitors and unconfirmed
 * e-mail addresses get 403 verified_required, checked before the body): the card form,
 * subscribe, confirm after 3-D Secure, cancel at period end, resume, change card and the
 * summary /settings/purchase shows.
 * Amounts and plans come from the plans table, never from the body; a refused card is a typed
 * 402 with the processor's Japanese message. Routes without a body (card-setup, cancel, resume)
 * ignore one. Answers: lib/api-types/schemas/payments.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CardSetupAnswer,
  ChangeCardBody,
  ConfirmBody,
  PurchaseAnswer,
  PurchaseSummaryAnswer,
  SubscribeBody,
  SubscriptionAnswer,
} from '../../../lib/api-types/schemas/payments';
import type { AuthUser } from '../auth/id-token';
import { requireVerifiedUser } from '../plugins/auth';
import { AnyQuery, errorResponses } from '../schemas';

const VERIFIED_ONLY = 'プランのお申し込みには会員登録（ログイン）が必要です。';

const verifiedUser = (request: FastifyRequest): AuthUser => requireVerifiedUser(request, VERIFIED_ONLY);

/** Bearer, verified (before the body is validated), never cached. */
const VERIFIED = {
  config: { auth: true },
  preValidation: async (request: FastifyRequest) => {
    verifiedUser(request);
  },
  onSend: async (_request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'no-store');
  },
};

const payer = (request: FastifyRequest) => {
  const user = verifiedUser(request);
  return { uid: user.uid, email: user.email };
};

const purchaseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/purchase/card-setup',
    { ...VERIFIED, schema: { querystring: AnyQuery, response: { 200: CardSetupAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, ...(await app.subscriptions.cardSetup(payer(request), request.headers.origin)) }),
  );

  app.post(
    '/v1/purchase/subscribe',
    { ...VERIFIED, schema: { querystring: AnyQuery, body: SubscribeBody, response: { 200: PurchaseAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, ...(await app.subscriptions.subscribe(payer(request), request.body, request.headers.origin)) }),
  );

  app.post(
    '/v1/purchase/confirm',
    { ...VERIFIED, schema: { querystring: AnyQuery, body: ConfirmBody, response: { 200: PurchaseAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, ...(await app.subscriptions.confirm(payer(request).uid, request.body.subscriptionId)) }),
  );

  app.post(
    '/v1/purchase/cancel',
    { ...VERIFIED, schema: { querystring: AnyQuery, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, subscription: await app.subscriptions.cancel(payer(request).uid) }),
  );

  app.post(
    '/v1/purchase/resume',
    { ...VERIFIED, schema: { querystring: AnyQuery, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, subscription: await app.subscriptions.resume(payer(request).uid) }),
  );

  app.post(
    '/v1/purchase/card',
    { ...VERIFIED, schema: { querystring: AnyQuery, body: ChangeCardBody, response: { 200: SubscriptionAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, subscription: await app.subscriptions.changeCard(payer(request), request.body.setupId) }),
  );

  app.get(
    '/v1/purchase/summary',
    { ...VERIFIED, schema: { querystring: AnyQuery, response: { 200: PurchaseSummaryAnswer, ...errorResponses } } },
    async (request) => ({ status: 'ok' as const, ...(await app.subscriptions.summary(payer(request).uid)) }),
  );
};

export default purchaseRoutes;
