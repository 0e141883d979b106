/**
 * Plans, subscriptions and purchases (docs/purchase.md): builds the SubscriptionService on the
 * database, firebase-admin (for the paymentExpirationTime claim) and the payment processor that
 * `createProcessor` picks from the payments config (server/payments/index.ts: the local sandbox
 * by default, Stripe in production). Routes reach it as `app.subscriptions`; the session start
 * asks it (or services/payments/entitlements.ts) whether a user may start a premium title.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createProcessor } from '../../payments';
import { SubscriptionService } from '../services/payments/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Plans, subscriptions, purchases, webhooks, entitlements (services/payments/service.ts). */
    subscriptions: SubscriptionService;
  }
}

async function paymentsPlugin(app: FastifyInstance): Promise<void> {
  const { payments, webOrigins } = app.config;
  const processor = createProcessor(payments.processorEnv);
  app.log.info({ processor: processor.name }, 'payment processor');
  app.decorate(
    'subscriptions',
    new SubscriptionService({
      db: app.db,
      processor,
      auth: app.firebaseAuth,
      config: payments,
      webOrigins,
      log: app.log.child({ component: 'payments' }),
    }),
  );
}

export default fp(paymentsPlugin, { name: 'yumecast-payments', fastify: '5.x', dependencies: ['yumecast-db', 'yumecast-auth'] });
