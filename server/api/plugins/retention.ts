/**
 * Data retention (issue 14, docs/scale.md "What breaks first" item 5): once a minute after the
 * start and then every hour, the play page's WebRTC stats older than STATS_RETENTION_DAYS are
 * deleted in batches (services/collect.ts `prune`). Every replica runs it; a run that finds the
 * rows gone deletes nothing. A failure (the database away) is logged and tried at the next run.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/pool';
import { CollectService } from '../services/collect';

export const RETENTION_FIRST_RUN_MS = 60_000;
export const RETENTION_INTERVAL_MS = 60 * 60_000;

export interface RetentionPluginOptions {
  /** STATS_RETENTION_DAYS; 0 keeps every row. */
  statsRetentionDays: number;
}

async function retentionPlugin(app: FastifyInstance, options: RetentionPluginOptions): Promise<void> {
  if (options.statsRetentionDays <= 0) return;
  const collect = new CollectService(app.db);
  let running: Promise<void> | null = null;
  const run = (): Promise<void> => {
    running ??= collect
      .prune(options.statsRetentionDays)
      .then((deleted) => {
        if (deleted > 0) app.log.info({ deleted, days: options.statsRetentionDays }, 'old WebRTC stats deleted');
      })
      .catch((error) => {
        if (isDatabaseUnavailable(error)) app.log.warn({ err: error }, 'stats retention skipped: database unavailable');
        else app.log.error({ err: error }, 'stats retention failed');
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  let first: NodeJS.Timeout | undefined;
  let every: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    first = setTimeout(() => void run(), RETENTION_FIRST_RUN_MS);
    every = setInterval(() => void run(), RETENTION_INTERVAL_MS);
    first.unref();
    every.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
    await running;
  });
}

export default fp(retentionPlugin, { name: 'yumecast-retention', fastify: '5.x', dependencies: ['yumecast-db'] });
