/**
 * The one migration runner of our PostgreSQL schemas (the api's, and the payments sandbox's own).
 * Migrations are plain SQL files `NNN_name.sql` in a folder, applied in order, each inside its own
 * transaction, and recorded in a table of the current schema (`schema_migrations` unless told).
 *
 * - Idempotent: applied versions are skipped, so every start (and every test) can call it.
 * - Safe when several processes start at once: the whole run holds a session-level
 *   pg_advisory_lock (by default keyed by the current schema), so the second process waits, then
 *   finds nothing left to do.
 * - Applied files are immutable: their sha256 is recorded and a changed file stops the run
 *   (write a new migration instead of editing an old one).
 * - A statement that cannot run in a transaction (CREATE INDEX CONCURRENTLY) is not supported.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  /** Files applied by this run, in order. */
  applied: string[];
  /** Versions that were already recorded before this run. */
  alreadyApplied: number;
}

export interface MigrateOptions {
  /** The folder of `NNN_name.sql` files. */
  dir: string;
  /** The table that records applied versions (in the connection's current schema). */
  table?: string;
  /**
   * The advisory lock the run holds: a namespace number and a key hashed with hashtext. Default:
   * the migrations namespace and the connection's current schema.
   */
  lock?: { namespace: number; key: string };
  log?: (message: string) => void;
  /** How long to wait for another process's run to finish. */
  lockTimeoutMs?: number;
}

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;
/** First half of the two-int advisory lock key: an arbitrary constant that names "migrations". */
const LOCK_NAMESPACE = 0x59554d45; // "YUME"

export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_NAME.exec(file);
    if (!match) throw new Error(`migration file name must look like 001_name.sql: ${file}`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) {
      throw new Error(`two migration files share version ${match[1]} in ${dir}`);
    }
    const sql = await readFile(path.join(dir, file), 'utf8');
    migrations.push({ version, name: match[2], file, sql, checksum: sha256(sql) });
  }
  return migrations;
}

export async function runMigrations(pool: pg.Pool, options: MigrateOptions): Promise<MigrationResult> {
  const log = options.log ?? (() => {});
  const migrations = await loadMigrations(options.dir);
  const table = pg.escapeIdentifier(options.table ?? 'schema_migrations');
  const lockArgs: (number | string | null)[] = options.lock ? [options.lock.namespace, options.lock.key] : [LOCK_NAMESPACE, null];
  const lockSql = (fn: string) => `SELECT ${fn}($1, hashtext(coalesce($2::text, current_schema(), '')))`;
  const client = await pool.connect();
  let locked = false;
  try {
    // lock_timeout also bounds pg_advisory_lock, so a stuck peer makes us fail, not hang.
    await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${options.lockTimeoutMs ?? 60_000}ms`]);
    await client.query(lockSql('pg_advisory_lock'), lockArgs);
    locked = true;
    await client.query(`RESET lock_timeout`);

    // Inside the lock: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${table} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ version: number; name: string; checksum: string }>(
      `SELECT version, name, checksum FROM ${table} ORDER BY version`,
    );
    const recorded = new Map(rows.map((row) => [row.version, row]));

    for (const migration of migrations) {
      const previous = recorded.get(migration.version);
      if (previous && previous.checksum !== migration.checksum) {
        throw new Error(
          `migration ${migration.file} was changed after it was applied ` +
            `(recorded checksum ${previous.checksum.slice(0, 12)}, file ${migration.checksum.slice(0, 12)}); ` +
            'add a new migration instead of editing an applied one',
        );
      }
    }
    const known = new Set(migrations.map((m) => m.version));
    for (const row of rows) {
      if (!known.has(row.version)) log(`${table} has version ${row.version} (${row.name}) with no file here`);
    }

    const applied: string[] = [];
    for (const migration of migrations) {
      if (recorded.has(migration.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${table} (version, name, checksum) VALUES ($1, $2, $3)`, [
          migration.version,
          migration.name,
          migration.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${migration.file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.file);
      log(`applied migration ${migration.file}`);
    }
    return { applied, alreadyApplied: recorded.size };
  } finally {
    let unlocked = !locked;
    if (locked) {
      unlocked = await client
        .query(lockSql('pg_advisory_unlock'), lockArgs)
        .then(() => true, () => false);
    }
    // A connection that may still hold the lock is closed rather than handed back to the pool.
    client.release(!unlocked);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
