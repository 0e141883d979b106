/**
 * The api's migrations: the SQL files in ./migrations, applied by the shared runner
 * (server/shared/pg/migrate.ts) to the api's schema and recorded in `schema_migrations`.
 * `npx tsx server/api/db/migrate.ts` applies pending migrations to DATABASE_URL and exits.
 */
import path from 'node:path';
import type pg from 'pg';
import {
  loadMigrations as loadFrom,
  runMigrations as runFrom,
  type MigrateOptions,
  type Migration,
  type MigrationResult,
} from '../../shared/pg/migrate';

export type { Migration, MigrationResult };

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

export function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  return loadFrom(dir);
}

export function runMigrations(pool: pg.Pool, options: Partial<MigrateOptions> = {}): Promise<MigrationResult> {
  return runFrom(pool, { ...options, dir: options.dir ?? MIGRATIONS_DIR });
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
