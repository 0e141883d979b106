/**
 * The sandbox's hosted pages, on its own origin (no secret key: each is authorised by the
 * client secret of one setup or payment, as with Stripe.js):
 *   GET  /hosted/card-form?client_secret=seti_…        the card form (frame it or open it);
 *   POST /hosted/setup_intents/:id/confirm              the form's script sends the card here:
 *        checked (Luhn, expiry, CVC, the test card's issuer answer) and tokenised into a payment
 *        method holding brand, last 4 and expiry only; refusals are 402 with a Japanese message;
 *   GET  /hosted/3ds?client_secret=pi_…                 the 3-D Secure challenge;
 *   POST /hosted/payment_intents/:id/authenticate       its answer {result: complete | fail};
 *   GET  /hosted/assets/:file                           the pages' script and style.
 * Pages send a CSP whose frame-ancestors is the one web origin the setup or payment was made
 * for, no referrer (the URL holds a client secret), and no-store.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { secretMatches } from '../../../shared/secret';
import { completeAuthentication } from '../billing';
import { tokeniseCard } from '../cards';
import { cardErrorWire, type BillingContext } from '../charges';
import type { SandboxConfig } from '../config';
import { withBillingLock } from '../db';
import { cardError, invalidRequest, notFound } from '../errors';
import { recordEvent } from '../events';
import { idFromClientSecret, newId } from '../ids';
import { paymentMethodJson, setupIntentJson } from '../objects';
import { cardFormHtml, challengeHtml, invalidLinkHtml } from '../pages';
import { load } from '../store';

interface Options {
  ctx: BillingContext;
  config: SandboxConfig;
}

const PUBLIC_DIR = path.join(__dirname, '..', 'public');
const ASSETS: Record<string, string> = { 'card-form.js': 'text/javascript', 'challenge.js': 'text/javascript', 'hosted.css': 'text/css' };

function pageHeaders(reply: FastifyReply, frameAncestor: string | null): FastifyReply {
  return reply
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; ` +
        `form-action 'self'; base-uri 'none'; frame-ancestors ${frameAncestor ?? "'none'"}`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
}

export default async function hostedRoutes(app: FastifyInstance, { ctx }: Options): Promise<void> {
  const { pool } = ctx;
  const assets = new Map(Object.keys(ASSETS).map((file) => [file, readFileSync(path.join(PUBLIC_DIR, file), 'utf8')]));

  app.get<{ Params: { file: string } }>('/hosted/assets/:file', async (request, reply) => {
    const body = assets.get(request.params.file);
    if (body === undefined) throw notFound('asset', request.params.file);
    return reply.type(`${ASSETS[request.params.file]}; charset=utf-8`).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(body);
  });

  app.get<{ Querystring: { client_secret?: string } }>('/hosted/card-form', async (request, reply) => {
    const secret = request.query.client_secret ?? '';
    const id = idFromClientSecret(secret);
    const setup = id?.startsWith('seti_') ? await load.setupIntent(pool, id) : null;
    if (!setup || !secretMatches(secret, setup.client_secret) || setup.status === 'canceled') {
      return pageHeaders(reply.code(404), null).send(invalidLinkHtml());
    }
    return pageHeaders(reply, setup.origin).send(
      cardFormHtml({
        setupIntentId: setup.id,
        clientSecret: setup.client_secret,
        targetOrigin: setup.origin,
        returnUrl: setup.return_url,
        completed: setup.status === 'succeeded',
      }),
    );
  });

  app.post<{ Params: { id: string }; Body: { client_secret: string; card: { number: string; exp_month: number; exp_year: number; cvc: string } } }>(
    '/hosted/setup_intents/:id/confirm',
    {
      schema: {
        body: {
          type: 'object',
          required: ['client_secret', 'card'],
          additionalProperties: false,
          properties: {
            client_secret: { type: 'string', maxLength: 200 },
            card: {
              type: 'object',
              required: ['number', 'exp_month', 'exp_year', 'cvc'],
              additionalProperties: false,
              properties: {
                number: { type: 'string', maxLength: 30 },
                exp_month: { type: 'integer' },
                exp_year: { type: 'integer' },
                cvc: { type: 'string', maxLength: 8 },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const setup = await load.setupIntent(pool, id);
      if (!setup || !secretMatches(request.body.client_secret, setup.client_secret)) throw notFound('setup_intent', id);
      if (setup.status !== 'requires_payment_method') {
        throw invalidRequest('このカード登録はすでに完了しています。購入ページを読み込み直してください。', undefined, 'setup_intent_unexpected_state');
      }
      const { card } = request.body;
      const checked = tokeniseCard({ number: card.number, expMonth: card.exp_month, expYear: card.exp_year, cvc: card.cvc }, ctx.clock.now());
      const now = ctx.clock.now();
      if (!checked.ok) {
        const lastError = cardErrorWire(checked.failure);
        await withBillingLock(pool, ctx.schema, async (tx) => {
          await tx.query('UPDATE setup_intents SET last_error = $2 WHERE id = $1', [id, lastError]);
          await recordEvent(tx, ctx.sink, 'setup_intent.setup_failed', setupIntentJson((await load.setupIntent(tx, id))!, ctx.urls), now);
        });
        ctx.afterCommit();
        throw cardError(checked.failure);
      }
      const result = await withBillingLock(pool, ctx.schema, async (tx) => {
        const current = await load.setupIntent(tx, id);
        if (current?.status !== 'requires_payment_method') {
          throw invalidRequest('このカード登録はすでに完了しています。購入ページを読み込み直してください。', undefined, 'setup_intent_unexpected_state');
        }
        const paymentMethodId = newId('pm');
        const { brand, last4, expMonth, expYear, behaviour } = checked.card;
        await tx.query(
          `INSERT INTO payment_methods (id, customer_id, brand, last4, exp_month, exp_year, behaviour, created)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [paymentMethodId, setup.customer_id, brand, last4, expMonth, expYear, behaviour, now],
        );
        await tx.query(`UPDATE setup_intents SET status = 'succeeded', payment_method_id = $2, last_error = NULL WHERE id = $1`, [id, paymentMethodId]);
        const setupJson = setupIntentJson((await load.setupIntent(tx, id))!, ctx.urls);
        await recordEvent(tx, ctx.sink, 'setup_intent.succeeded', setupJson, now);
        return { setup_intent: setupJson, payment_method: paymentMethodJson((await load.paymentMethod(tx, paymentMethodId))!) };
      });
      ctx.afterCommit();
      return result;
    },
  );

  app.get<{ Querystring: { client_secret?: string } }>('/hosted/3ds', async (request, reply) => {
    const secret = request.query.client_secret ?? '';
    const id = idFromClientSecret(secret);
    const intent = id?.startsWith('pi_') ? await load.paymentIntent(pool, id) : null;
    if (!intent || !secretMatches(secret, intent.client_secret) || !intent.origin) {
      return pageHeaders(reply.code(404), null).send(invalidLinkHtml());
    }
    const card = intent.payment_method_id ? await load.paymentMethod(pool, intent.payment_method_id) : null;
    return pageHeaders(reply, intent.origin).send(
      challengeHtml({
        paymentIntentId: intent.id,
        clientSecret: intent.client_secret,
        targetOrigin: intent.origin,
        returnUrl: intent.return_url,
        amountJpy: intent.amount,
        cardLabel: card ? `${card.brand.toUpperCase()} •••• ${card.last4}` : 'カード',
        status: intent.status,
      }),
    );
  });

  app.post<{ Params: { id: string }; Body: { client_secret: string; result: 'complete' | 'fail' } }>(
    '/hosted/payment_intents/:id/authenticate',
    {
      schema: {
        body: {
          type: 'object',
          required: ['client_secret', 'result'],
          additionalProperties: false,
          properties: { client_secret: { type: 'string', maxLength: 200 }, result: { enum: ['complete', 'fail'] } },
        },
      },
    },
    async (request) => {
      const intent = await load.paymentIntent(pool, request.params.id);
      if (!intent || !secretMatches(request.body.client_secret, intent.client_secret)) throw notFound('payment_intent', request.params.id);
      const updated = await completeAuthentication(ctx, intent.id, request.body.result === 'complete');
      return { payment_intent: { id: updated.id, object: 'payment_intent', status: updated.status, last_payment_error: updated.last_error } };
    },
  );
}
