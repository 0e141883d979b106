/**
 * The api's probes (docs/operations.md "Liveness and readiness"):
 * - GET /livez: the process is alive and its event loop answers. Always 200; it checks nothing
 *   outside the process, so a database outage never gets a healthy api restarted.
 * - GET /readyz: ready for traffic: PostgreSQL answers `SELECT 1` within 2 s, every migration
 *   file is applied, and the api is not closing. Otherwise 503 service_unavailable (envelope).
 * - GET /health: the same check as /readyz with its historical answer (`{status, db}`), kept
 *   for the stack scripts and monitors that already poll it.
 * Probes log at warn level only, so a load balancer's polling does not fill the log.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { okAnswer, OkOnly } from '../../../lib/api-types/schemas/common';
import { ApiError } from '../errors';
import { AnyQuery, errorResponses } from '../schemas';
import { checkDatabase, MigrationCheck } from '../services/health';

export const HealthAnswer = okAnswer({ db: Type.Literal('ok') });
export type HealthAnswer = Static<typeof HealthAnswer>;

export const ReadyAnswer = okAnswer({ db: Type.Literal('ok'), migrations: Type.Literal('ok') });

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const migrations = new MigrationCheck(app.db);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  const ready = async (): Promise<void> => {
    if (closing) throw new ApiError('service_unavailable', undefined, { cause: new Error('the api is shutting down') });
    await checkDatabase(app.db);
    await migrations.check();
  };

  app.get('/livez', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: OkOnly, ...errorResponses } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/readyz', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: ReadyAnswer, ...errorResponses } } }, async () => {
    await ready();
    return { status: 'ok' as const, db: 'ok' as const, migrations: 'ok' as const };
  });

  app.get('/health', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: HealthAnswer, ...errorResponses } } }, async () => {
    await ready();
    return { status: 'ok' as const, db: 'ok' as const };
  });
};

export default healthRoutes;
