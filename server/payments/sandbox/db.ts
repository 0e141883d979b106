/**
 * The sandbox's PostgreSQL: a pool whose search_path is the sandbox's own schema, the
 * sandbox's own migration runner (plain SQL files in ./migrations, applied at start, recorded in
 * `sandbox_migrations` inside that schema), and a transaction helper that serialises every
 * change to billing state (one advisory lock per schema), so the clock, the API and the hosted
 * pages never race on the same subscription.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

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
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [LOCK_NAMESPACE, `migrate:${schema}`]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS sandbox_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          checksum text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`);
      const { rows } = await client.query<{ version: number; checksum: string }>('SELECT version, checksum FROM sandbox_migrations');
      const recorded = new Map(rows.map((row) => [row.version, row.checksum]));
      const applied: string[] = [];
      for (const file of (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort()) {
        const match = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
        if (!match) throw new Error(`sandbox migration file name must look like 001_name.sql: ${file}`);
        const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
        const checksum = createHash('sha256').update(sql).digest('hex');
        const version = Number(match[1]);
        const previous = recorded.get(version);
        if (previous !== undefined) {
          if (previous !== checksum) throw new Error(`sandbox migration ${file} changed after it was applied: add a new one`);
          continue;
        }
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO sandbox_migrations (version, name, checksum) VALUES ($1, $2, $3)', [version, match[2], checksum]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw new Error(`sandbox migration ${file} failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(file);
      }
      return applied;
    } finally {
      await client.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_NAMESPACE, `migrate:${schema}`]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/**
 * Runs `fn` in a transaction holding the schema's billing lock: billing changes happen one at a
 * time, whichever process or request makes them.
 */
export async function withBillingLock<T>(pool: Db, schema: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `billing:${schema}`]);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
