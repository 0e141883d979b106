/**
 * The sandbox's PostgreSQL: a pool whose search_path is the sandbox's own schema, the
 * sandbox's migrations (plain SQL files in ./migrations, applied at start by the shared runner,
 * server/shared/pg/migrate.ts, recorded in `sandbox_migrations` inside that schema), and a
 * transaction helper that serialises every
 * change to billing state (one advisory lock per schema), so the clock, the API and the hosted
 * pages never race on the same subscription.
 */
import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '../../shared/pg/migrate';
import { withTransaction } from '../../shared/pg/transaction';

export type Db = pg.Pool;
export type Tx = pg.PoolClient;

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
/** First half of the advisory lock keys: "PAYS". */
const LOCK_NAMESPACE = 0x50415953;

export function createSandboxPool(databaseUrl: string, schema: string, max = 5): Db {
  return new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'yumecast-payments-sandbox',
    options: `-c search_path=${schema}`,
  });
}

/** Creates the schema when missing and applies pending migrations; returns the files applied. */
export async function migrateSandbox(pool: Db, schema: string): Promise<string[]> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
  } catch (error) {
    // two sandboxes starting at once: the other one made it (unique violation on the catalogue)
    if ((error as { code?: string }).code !== '23505') throw error;
  }
  const result = await runMigrations(pool, {
    dir: MIGRATIONS_DIR,
    table: 'sandbox_migrations',
    lock: { namespace: LOCK_NAMESPACE, key: `migrate:${schema}` },
  });
  return result.applied;
}

/**
 * Runs `fn` in a transaction holding the schema's billing lock: billing changes happen one at a
 * time, whichever process or request makes them.
 */
export function withBillingLock<T>(pool: Db, schema: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `billing:${schema}`]);
    return fn(tx);
  });
}
