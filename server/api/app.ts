/**
 * The API server's assembly: buildApp() creates the Fastify app with its Ajv options, the shared
 * plugins (errors, cors, db, retention, auth, sessions, catalogue, payments) and one plugin per route group
 * (routes/*.ts, each a FastifyPluginAsyncTypebox; conventions in docs/api.md).
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { envelopeServerOptions } from '../shared/errors';
import { finiteNumbers } from '../shared/finite-numbers';
import { serverTimeoutOptions } from '../shared/http-limits';
import { requestLogOptions } from '../shared/logging';
import { loadConfig, type ApiConfig } from './config';
import authPlugin from './plugins/auth';
import corsPlugin from './plugins/cors';
import dbPlugin from './plugins/db';
import retentionPlugin from './plugins/retention';
import securityHeadersPlugin from './plugins/securityHeaders';
import errorsPlugin from './plugins/errors';
import metricsPlugin from './plugins/metrics';
import observabilityPlugin from './plugins/observability';
import rateLimitPlugin from './plugins/rateLimit';
import healthRoutes from './routes/health';
import meRoutes from './routes/me';
import sessionsPlugin from './plugins/sessions';
import collectRoutes from './routes/collect';
import internalRoutes from './routes/internal';
import screenshotRoutes from './routes/screenshots';
import sessionRoutes from './routes/sessions';
import signalRoutes from './routes/signal';
import claimsRoutes from './routes/claims';
import cataloguePlugin from './plugins/catalogue';
import catalogRoutes from './routes/catalog';
import magazineRoutes from './routes/magazine';
import mylistRoutes from './routes/mylist';
import paymentsPlugin from './plugins/payments';
import planRoutes from './routes/plans';
import subscriptionRoutes from './routes/subscriptions';
import purchaseRoutes from './routes/purchase';
import paymentsWebhookRoutes from './routes/paymentsWebhook';
import paymentRequestRoutes from './routes/paymentRequests';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration this app was built with. */
    config: ApiConfig;
  }
}

export interface BuildAppOptions {
  /** Overrides of the configuration read from the environment (tests inject theirs here). */
  config?: Partial<ApiConfig>;
  /** Fastify logger option; defaults to JSON logs at config.logLevel with secrets redacted. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the API server without listening, so tests can `inject` requests and add routes before
 * `ready()`. Shared plugins come first (their hooks and decorators must exist before any route
 * is added), then one plugin per route group.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config: ApiConfig = { ...loadConfig(), ...options.config };

  const app = Fastify({
    logger: options.logger ?? requestLogOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    // Slow senders are cut off: headers and body within API_HEADERS/REQUEST_TIMEOUT_MS, looked
    // at every API_TIMEOUT_CHECK_MS (server/shared/http-limits.ts says why all three are needed).
    ...serverTimeoutOptions(config.timeouts),
    // Behind a proxy, the client's address (the rate limits' key) comes from X-Forwarded-For.
    trustProxy: config.trustProxy,
    ajv: {
      customOptions: {
        // Reject unknown fields (additionalProperties: false) with a typed 400 instead of
        // silently dropping them, so a misspelt field never passes unnoticed.
        removeAdditional: false,
      },
      // Every number a request carries must be finite (coercion made "Infinity" pass maximum).
      plugins: [finiteNumbers],
    },
    // Errors raised before routing (bad URL, over-long path parameter, what Node's parser
    // refuses) answer with the error envelope too (server/shared/errors.ts).
    ...envelopeServerOptions,
  });
  app.decorate('config', config);

  // server.close() (inside app.close()) only reaps keep-alive connections that are idle at that
  // moment. One whose request is still being handled turns idle after its response and would then
  // hold close() for keepAliveTimeout (72 s). So responses sent while closing end their connection
  // (Connection: close), and connections that went idle anyway are reaped after each response.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (closing) app.server.closeIdleConnections();
  });

  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  // Sentry when SENTRY_DSN is set: 5xx answers reported (docs/operations.md)
  await app.register(observabilityPlugin, { sentryDsn: config.sentryDsn });
  await app.register(corsPlugin, { origins: config.webOrigins });
  await app.register(dbPlugin, {
    databaseUrl: config.databaseUrl,
    schema: config.dbSchema,
    poolMax: config.dbPoolMax,
    timeouts: config.dbTimeouts,
    runMigrations: config.runMigrations,
  });
  // Old WebRTC stats deleted hourly (STATS_RETENTION_DAYS; docs/scale.md).
  await app.register(retentionPlugin, { statsRetentionDays: config.statsRetentionDays });
  await app.register(authPlugin, { projectId: config.firebaseProjectId, emulatorHost: config.authEmulatorHost, revocationCheckMs: config.authRevocationCheckMs });
  // Rate limits per user and per address (docs/api.md): after auth, before every route group.
  await app.register(rateLimitPlugin, { limits: config.rateLimit });
  // The catalogue seeds the games table at start (plugins/catalogue.ts): the titles sessions start.
  await app.register(cataloguePlugin);
  await app.register(sessionsPlugin, {
    config: config.sessions,
    listenHost: config.host,
    listenPort: config.port,
    signalBus: { databaseUrl: config.databaseListenUrl ?? config.databaseUrl, schema: config.dbSchema },
  });
  // Plans, subscriptions, purchases and the processor (docs/purchase.md): app.subscriptions.
  await app.register(paymentsPlugin);
  // Prometheus: GET /metrics (METRICS_TOKEN or loopback) and the request histogram, before the routes
  await app.register(metricsPlugin, { token: config.metricsToken, poolMax: config.dbPoolMax });

  await app.register(healthRoutes);
  await app.register(meRoutes);
  await app.register(sessionRoutes);
  await app.register(internalRoutes);
  await app.register(screenshotRoutes);
  await app.register(collectRoutes);
  await app.register(signalRoutes);
  await app.register(claimsRoutes, { internalToken: process.env.INTERNAL_API_TOKEN });
  await app.register(catalogRoutes);
  await app.register(magazineRoutes);
  await app.register(mylistRoutes);
  await app.register(planRoutes);
  await app.register(subscriptionRoutes);
  await app.register(purchaseRoutes);
  await app.register(paymentsWebhookRoutes);
  await app.register(paymentRequestRoutes);

  return app;
}
