import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { redactUrl } from '../config';
import { runMigrations } from '../db/migrate';
import { createPool } from '../db/pool';
import type { DatabaseTimeouts } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    /** The PostgreSQL pool. Use `app.db.query(...)`, or `connect()` for a transaction. */
    db: pg.Pool;
  }
}

export interface DbPluginOptions {
  databaseUrl: string;
  schema?: string;
  poolMax: number;
  runMigrations: boolean;
  /** Statement, query and connect timeouts (config.dbTimeouts); the env's when absent. */
  timeouts?: DatabaseTimeouts;
}

/** One pg Pool per API process, migrated before the server accepts requests, ended on close. */
async function dbPlugin(app: FastifyInstance, options: DbPluginOptions): Promise<void> {
  const pool = createPool({ databaseUrl: options.databaseUrl, schema: options.schema, max: options.poolMax, timeouts: options.timeouts });
  // An idle client losing its connection emits here; without a listener it would crash the process.
  pool.on('error', (error) => app.log.warn({ err: error }, 'idle PostgreSQL connection failed'));

  if (options.runMigrations) {
    try {
      const result = await runMigrations(pool, { log: (message) => app.log.info(message) });
      app.log.info({ applied: result.applied.length, alreadyApplied: result.alreadyApplied }, 'migrations up to date');
    } catch (error) {
      await pool.end().catch(() => {});
      throw new Error(`cannot migrate ${redactUrl(options.databaseUrl)}: ${(error as Error).message}`, { cause: error });
    }
  }

  app.decorate('db', pool);
  app.addHook('onClose', async () => {
    await pool.end();
  });
}

export default fp(dbPlugin, { name: 'yumecast-db', fastify: '5.x' });
