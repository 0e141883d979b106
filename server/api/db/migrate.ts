import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

/**
 * Migration runner. Migrations are plain SQL files `NNN_name.sql` in ./migrations, applied in
 * order, each inside its own transaction, and recorded in `schema_migrations` (created here).
 *
 * - Idempotent: applied versions are skipped, so every start (and every test) can call it.
 * - Safe when several API processes start at once: the whole run holds a session-level
 *   pg_advisory_lock keyed by the current schema, so the second process waits, then finds
 *   nothing left to do.
 * - Applied files are immutable: their sha256 is recorded and a changed file stops the run
 *   (write a new migration instead of editing an old one).
 * - A statement that cannot run in a transaction (CREATE INDEX CONCURRENTLY) is not supported.
 */

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

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
  dir?: string;
  log?: (message: string) => void;
  /** How long to wait for another process's run to finish. */
  lockTimeoutMs?: number;
}

const FILE_NAME = /^(\d{3})_([a-z0-9_]+)\.sql$/;
/** First half of the two-int advisory lock key: an arbitrary constant that names "migrations". */
const LOCK_NAMESPACE = 0x59554d45; // "YUME"

export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
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

export async function runMigrations(pool: pg.Pool, options: MigrateOptions = {}): Promise<MigrationResult> {
  const log = options.log ?? (() => {});
  const migrations = await loadMigrations(options.dir);
  const client = await pool.connect();
  let locked = false;
  try {
    // lock_timeout also bounds pg_advisory_lock, so a stuck peer makes us fail, not hang.
    await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${options.lockTimeoutMs ?? 60_000}ms`]);
    await client.query(`SELECT pg_advisory_lock($1, hashtext(coalesce(current_schema(), '')))`, [LOCK_NAMESPACE]);
    locked = true;
    await client.query(`RESET lock_timeout`);

    // Inside the lock: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
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
      if (!known.has(row.version)) log(`schema_migrations has version ${row.version} (${row.name}) with no file here`);
    }

    const applied: string[] = [];
    for (const migration of migrations) {
      if (recorded.has(migration.version)) continue;
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
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
        .query(`SELECT pg_advisory_unlock($1, hashtext(coalesce(current_schema(), '')))`, [LOCK_NAMESPACE])
        .then(() => true, () => false);
    }
    // A connection that may still hold the lock is closed rather than handed back to the pool.
    client.release(!unlocked);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// CLI: `npx tsx server/api/db/migrate.ts` applies pending migrations to DATABASE_URL and exits.
if (require.main === module) {
  void (async () => {
    const { loadConfig, redactUrl } = await import('../config');
    const { createPool } = await import('./pool');
    const config = loadConfig();
    const pool = createPool({ databaseUrl: config.databaseUrl, max: 1, applicationName: 'yumecast-migrate' });
    try {
      const result = await runMigrations(pool, { log: (message) => console.log(message) });
      console.log(
        `migrations up to date on ${redactUrl(config.databaseUrl)}: ` +
          `${result.applied.length} applied, ${result.alreadyApplied} already there`,
      );
    } catch (error) {
      console.error(`migrations failed on ${redactUrl(config.databaseUrl)}: ${(error as Error).message}`);
      process.exitCode = 1;
    } finally {
      await pool.end();
    }
  })();
}
