/**
 * Test helpers of the sandbox (secret key required, like Stripe's /v1/test_helpers):
 *   POST /v1/test_helpers/clock/advance {seconds}   move the clock forward and run every
 *        renewal, retry and expiry due by then (webhooks follow asynchronously);
 *   GET  /v1/test_helpers/clock                     the sandbox's time and offset;
 *   POST /v1/test_helpers/payment_methods/:id {behaviour}  make a saved card start declining
 *        (renewal failures) or succeeding again;
 *   GET  /v1/test_helpers/deliveries?event=…        webhook delivery attempts.
 */
import type { FastifyInstance } from 'fastify';
import type { BillingContext } from '../charges';
import type { SandboxConfig } from '../config';
import { withBillingLock } from '../db';
import { notFound } from '../errors';
import { paymentMethodJson } from '../objects';
import { runDue } from '../renewals';
import { load } from '../store';
import { requireSecretKey } from './guards';

interface Options {
  ctx: BillingContext;
  config: SandboxConfig;
}

export default async function testHelperRoutes(app: FastifyInstance, { ctx, config }: Options): Promise<void> {
  const { pool, clock } = ctx;
  app.addHook('onRequest', requireSecretKey(config));

  const clockJson = (ran?: number) => ({ object: 'test_clock', now: clock.now(), offset_seconds: clock.offset, ...(ran === undefined ? {} : { ran }) });

  app.get('/v1/test_helpers/clock', async () => clockJson());

  app.post<{ Body: { seconds: number } }>(
    '/v1/test_helpers/clock/advance',
    {
      schema: {
        body: { type: 'object', required: ['seconds'], additionalProperties: false, properties: { seconds: { type: 'integer', minimum: 1, maximum: 5 * 366 * 86_400 } } },
      },
    },
    async (request) => {
      try {
        await withBillingLock(pool, ctx.schema, (tx) => clock.advance(tx, request.body.seconds));
      } catch (error) {
        await clock.load();
        throw error;
      }
      const ran = await runDue(ctx, clock.now());
      return clockJson(ran);
    },
  );

  app.post<{ Params: { id: string }; Body: { behaviour: 'succeed' | 'decline' | 'require_3ds' } }>(
    '/v1/test_helpers/payment_methods/:id',
    {
      schema: {
        body: { type: 'object', required: ['behaviour'], additionalProperties: false, properties: { behaviour: { enum: ['succeed', 'decline', 'require_3ds'] } } },
      },
    },
    async (request) => {
      const { rowCount } = await pool.query('UPDATE payment_methods SET behaviour = $2 WHERE id = $1', [request.params.id, request.body.behaviour]);
      if (rowCount === 0) throw notFound('payment_method', request.params.id);
      return { ...paymentMethodJson((await load.paymentMethod(pool, request.params.id))!), behaviour: request.body.behaviour };
    },
  );

  app.get<{ Querystring: { event?: string } }>('/v1/test_helpers/deliveries', async (request) => {
    const { rows } = await pool.query(
      `SELECT d.event_id, e.type, d.url, d.attempts, d.delivered_at, d.failed_at, d.last_status, d.last_error
         FROM deliveries d JOIN events e ON e.id = d.event_id
        WHERE ($1::text IS NULL OR d.event_id = $1) ORDER BY e.seq, d.id`,
      [request.query.event ?? null],
    );
    return { object: 'list', data: rows, has_more: false, url: '/v1/test_helpers/deliveries' };
  });
}
