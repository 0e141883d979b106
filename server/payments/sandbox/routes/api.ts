/**
 * The sandbox's /v1 API, Stripe-like: `Authorization: Bearer <secret key>` on every call,
 * `Idempotency-Key` honoured on POST/DELETE, JSON bodies, Stripe-shaped objects and errors.
 * Customers, setup intents (each gives the hosted card form's address), payment methods (read
 * only: cards are created by the hosted form), subscriptions (create with the first payment,
 * cancel at period end, resume, change card, cancel now), invoices, events.
 */
import type { FastifyInstance } from 'fastify';
import { cancelNow, createSubscription, setCancelAtPeriodEnd } from '../billing';
import { latestPayment, type BillingContext } from '../charges';
import type { SandboxConfig } from '../config';
import { withBillingLock } from '../db';
import { invalidRequest, notFound } from '../errors';
import { recordEvent } from '../events';
import { newClientSecret, newId } from '../ids';
import { registerIdempotency } from '../idempotency';
import { customerJson, invoiceJson, paymentMethodJson, setupIntentJson, subscriptionJson } from '../objects';
import { list, load, type SubscriptionRow } from '../store';
import type { WireList } from '../wire';
import { checkOrigin, checkReturnUrl, requireSecretKey } from './guards';

interface Options {
  ctx: BillingContext;
  config: SandboxConfig;
}

const ID = { type: 'string', minLength: 1, maxLength: 64 } as const;
const METADATA = { type: 'object', additionalProperties: { type: 'string', maxLength: 500 }, maxProperties: 20 } as const;
const EMAIL = { anyOf: [{ type: 'string', maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }, { type: 'null' }] } as const;

function listOf<T>(data: T[], url: string): WireList<T> {
  return { object: 'list', data, has_more: false, url };
}

export default async function apiRoutes(app: FastifyInstance, { ctx, config }: Options): Promise<void> {
  const { pool } = ctx;
  const subJson = async (row: SubscriptionRow) => subscriptionJson(row, await latestPayment(pool, row), ctx.urls);

  app.addHook('onRequest', requireSecretKey(config));
  registerIdempotency(app, pool);

  // ── customers ──
  app.post<{ Body: { email?: string | null; metadata?: Record<string, string> } }>(
    '/v1/customers',
    { schema: { body: { type: 'object', additionalProperties: false, properties: { email: EMAIL, metadata: METADATA } } } },
    async (request) => {
      const id = newId('cus');
      const metadata = request.body.metadata ?? {};
      await pool.query('INSERT INTO customers (id, uid, email, metadata, created) VALUES ($1, $2, $3, $4, $5)', [
        id,
        metadata.uid ?? null,
        request.body.email ?? null,
        metadata,
        ctx.clock.now(),
      ]);
      return customerJson((await load.customer(pool, id))!);
    },
  );

  app.get<{ Querystring: { uid: string } }>(
    '/v1/customers',
    { schema: { querystring: { type: 'object', required: ['uid'], properties: { uid: { type: 'string', minLength: 1, maxLength: 128 } } } } },
    async (request) => listOf((await list.customersByUid(pool, request.query.uid)).map(customerJson), '/v1/customers'),
  );

  app.get<{ Params: { id: string } }>('/v1/customers/:id', async (request) => {
    const row = await load.customer(pool, request.params.id);
    if (!row) throw notFound('customer', request.params.id);
    return customerJson(row);
  });

  app.post<{ Params: { id: string }; Body: { email?: string | null; invoice_settings?: { default_payment_method?: string } } }>(
    '/v1/customers/:id',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { email: EMAIL, invoice_settings: { type: 'object', additionalProperties: false, properties: { default_payment_method: ID } } },
        },
      },
    },
    async (request) => {
      const row = await load.customer(pool, request.params.id);
      if (!row) throw notFound('customer', request.params.id);
      const paymentMethod = request.body.invoice_settings?.default_payment_method;
      if (paymentMethod) {
        const card = await load.paymentMethod(pool, paymentMethod);
        if (!card || card.customer_id !== row.id) throw invalidRequest('The payment method does not belong to this customer.', 'invoice_settings[default_payment_method]');
      }
      await pool.query(
        `UPDATE customers SET email = CASE WHEN $2 THEN $3 ELSE email END, default_payment_method = COALESCE($4, default_payment_method) WHERE id = $1`,
        [row.id, 'email' in request.body, request.body.email ?? null, paymentMethod ?? null],
      );
      return customerJson((await load.customer(pool, row.id))!);
    },
  );

  // ── setup intents and payment methods ──
  app.post<{ Body: { customer: string; origin: string; return_url?: string } }>(
    '/v1/setup_intents',
    {
      schema: {
        body: {
          type: 'object',
          required: ['customer', 'origin'],
          additionalProperties: false,
          properties: { customer: ID, origin: { type: 'string', maxLength: 200 }, return_url: { type: 'string', maxLength: 2000 } },
        },
      },
    },
    async (request) => {
      const customer = await load.customer(pool, request.body.customer);
      if (!customer) throw notFound('customer', request.body.customer);
      const origin = checkOrigin(config, request.body.origin);
      const returnUrl = checkReturnUrl(config, request.body.return_url);
      const id = newId('seti');
      await pool.query(
        `INSERT INTO setup_intents (id, customer_id, client_secret, status, origin, return_url, created)
         VALUES ($1, $2, $3, 'requires_payment_method', $4, $5, $6)`,
        [id, customer.id, newClientSecret(id), origin, returnUrl, ctx.clock.now()],
      );
      return setupIntentJson((await load.setupIntent(pool, id))!, ctx.urls);
    },
  );

  app.get<{ Params: { id: string } }>('/v1/setup_intents/:id', async (request) => {
    const row = await load.setupIntent(pool, request.params.id);
    if (!row) throw notFound('setup_intent', request.params.id);
    return setupIntentJson(row, ctx.urls);
  });

  app.get<{ Querystring: { customer: string } }>(
    '/v1/payment_methods',
    { schema: { querystring: { type: 'object', required: ['customer'], properties: { customer: ID } } } },
    async (request) => listOf((await list.paymentMethods(pool, request.query.customer)).map(paymentMethodJson), '/v1/payment_methods'),
  );

  app.get<{ Params: { id: string } }>('/v1/payment_methods/:id', async (request) => {
    const row = await load.paymentMethod(pool, request.params.id);
    if (!row) throw notFound('payment_method', request.params.id);
    return paymentMethodJson(row);
  });

  // ── subscriptions ──
  app.post<{
    Body: {
      customer: string;
      default_payment_method: string;
      plan: { id: string; name?: string; amount: number; currency: 'jpy'; interval: 'day' | 'week' | 'month' | 'year'; interval_count?: number };
      metadata?: Record<string, string>;
      origin?: string;
      return_url?: string;
    };
  }>(
    '/v1/subscriptions',
    {
      schema: {
        body: {
          type: 'object',
          required: ['customer', 'default_payment_method', 'plan'],
          additionalProperties: false,
          properties: {
            customer: ID,
            default_payment_method: ID,
            plan: {
              type: 'object',
              required: ['id', 'amount', 'currency', 'interval'],
              additionalProperties: false,
              properties: {
                id: { type: 'string', minLength: 1, maxLength: 64 },
                name: { type: 'string', maxLength: 200 },
                amount: { type: 'integer', minimum: 1, maximum: 10_000_000 },
                currency: { const: 'jpy' },
                interval: { enum: ['day', 'week', 'month', 'year'] },
                interval_count: { type: 'integer', minimum: 1, maximum: 36 },
              },
            },
            metadata: METADATA,
            origin: { type: 'string', maxLength: 200 },
            return_url: { type: 'string', maxLength: 2000 },
          },
        },
      },
    },
    async (request) => {
      const { body } = request;
      const origin = body.origin === undefined ? null : checkOrigin(config, body.origin);
      const { subscription } = await createSubscription(ctx, {
        customerId: body.customer,
        paymentMethodId: body.default_payment_method,
        plan: { id: body.plan.id, name: body.plan.name ?? null, amount: body.plan.amount, currency: 'jpy', interval: body.plan.interval, interval_count: body.plan.interval_count ?? 1 },
        metadata: body.metadata ?? {},
        origin,
        returnUrl: checkReturnUrl(config, body.return_url),
      });
      return subJson(subscription);
    },
  );

  app.get<{ Querystring: { customer: string } }>(
    '/v1/subscriptions',
    { schema: { querystring: { type: 'object', required: ['customer'], properties: { customer: ID } } } },
    async (request) => listOf(await Promise.all((await list.subscriptions(pool, request.query.customer)).map(subJson)), '/v1/subscriptions'),
  );

  app.get<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => {
    const row = await load.subscription(pool, request.params.id);
    if (!row) throw notFound('subscription', request.params.id);
    return subJson(row);
  });

  app.post<{ Params: { id: string }; Body: { cancel_at_period_end?: boolean; default_payment_method?: string } }>(
    '/v1/subscriptions/:id',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { cancel_at_period_end: { type: 'boolean' }, default_payment_method: ID },
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      const paymentMethod = request.body.default_payment_method;
      if (paymentMethod) {
        await withBillingLock(pool, ctx.schema, async (tx) => {
          const sub = await load.subscription(tx, id, true);
          if (!sub) throw notFound('subscription', id);
          const card = await load.paymentMethod(tx, paymentMethod);
          if (!card || card.customer_id !== sub.customer_id) throw invalidRequest('The payment method does not belong to this customer.', 'default_payment_method');
          if (sub.default_payment_method !== paymentMethod) {
            await tx.query('UPDATE subscriptions SET default_payment_method = $2 WHERE id = $1', [id, paymentMethod]);
            await recordEvent(tx, ctx.sink, 'customer.subscription.updated', await subJsonTx(tx, id), ctx.clock.now());
          }
        });
        ctx.afterCommit();
      }
      let row = await load.subscription(pool, id);
      if (!row) throw notFound('subscription', id);
      if (request.body.cancel_at_period_end !== undefined) row = await setCancelAtPeriodEnd(ctx, id, request.body.cancel_at_period_end);
      return subJson(row);
    },
  );

  async function subJsonTx(tx: Parameters<typeof latestPayment>[0], id: string) {
    const row = (await load.subscription(tx, id))!;
    return subscriptionJson(row, await latestPayment(tx, row), ctx.urls);
  }

  app.delete<{ Params: { id: string } }>('/v1/subscriptions/:id', async (request) => subJson(await cancelNow(ctx, request.params.id)));

  // ── invoices and events ──
  app.get<{ Querystring: { customer?: string; subscription?: string; limit?: string } }>('/v1/invoices', async (request) => {
    const { customer, subscription } = request.query;
    if (!customer && !subscription) throw invalidRequest('customer or subscription is required.', 'customer');
    const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 10) || 10));
    return listOf((await list.invoices(pool, { customerId: customer, subscriptionId: subscription }, limit)).map(invoiceJson), '/v1/invoices');
  });

  app.get<{ Querystring: { limit?: string; type?: string } }>('/v1/events', async (request) => {
    const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 10) || 10));
    const { rows } = await pool.query<{ payload: string }>(
      'SELECT payload FROM events WHERE ($1::text IS NULL OR type = $1) ORDER BY seq DESC LIMIT $2',
      [request.query.type ?? null, limit],
    );
    return listOf(rows.map((row) => JSON.parse(row.payload)), '/v1/events');
  });

  app.get<{ Params: { id: string } }>('/v1/events/:id', async (request, reply) => {
    const { rows } = await pool.query<{ payload: string }>('SELECT payload FROM events WHERE id = $1', [request.params.id]);
    if (rows.length === 0) throw notFound('event', request.params.id);
    return reply.type('application/json; charset=utf-8').send(rows[0].payload);
  });
}
