/**
 * Sentry on the api (server/shared/sentry.ts): initialised once per process when a DSN is given
 * (app.ts passes config.sentryDsn: SENTRY_DSN, else NEXT_PUBLIC_SENTRY_DSN, the web's rule), and
 * every 5xx answer but 503 reported with the error behind it. Without a DSN it registers hooks
 * that do nothing and loads no SDK. docs/operations.md "Sentry".
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { initSentry, sentryErrorCapture } from '../../shared/sentry';

export interface ObservabilityOptions {
  /** The Sentry DSN; undefined: Sentry off. */
  sentryDsn: string | undefined;
}

async function observabilityPlugin(app: FastifyInstance, options: ObservabilityOptions): Promise<void> {
  if (await initSentry({ dsn: options.sentryDsn, service: 'api' })) app.log.info('Sentry error reporting on');
  await app.register(sentryErrorCapture);
}

export default fp(observabilityPlugin, { name: 'yumecast-observability', fastify: '5.x' });
