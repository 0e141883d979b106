import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import type { ApiConfig } from '../config';
import { HOW_TO_RUN, TEST_AUTH_EMULATOR_HOST, TEST_DATABASE_URL, TEST_PROJECT_ID } from './services';

export interface TestSchema {
  name: string;
  /** A pool whose search_path is the schema, for assertions. */
  pool: pg.Pool;
  /** Drops the schema and everything in it, and ends the pool. */
  drop(): Promise<void>;
}

/**
 * A fresh schema per test file: migrations and rows of parallel test files never meet, and
 * dropping it cleans up everything the file created in the database.
 */
export async function createTestSchema(prefix = 't'): Promise<TestSchema> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`cannot reach PostgreSQL at DATABASE_URL (${(error as Error).message}).\n${HOW_TO_RUN}`);
  }
  try {
    await admin.query(`CREATE SCHEMA ${admin.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${name}` });
  return {
    name,
    pool,
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(name)} CASCADE`);
      await pool.end();
    },
  };
}

/**
 * Config for an app under test: its own schema, the emulator, quiet logs, and rate limits out
 * of the way (suites poll every 25 ms from one address; the limits have their own tests, which
 * pass `rateLimit` in `overrides`).
 */
export function testConfig(schema: string, overrides: Partial<ApiConfig> = {}): Partial<ApiConfig> {
  return {
    databaseUrl: TEST_DATABASE_URL,
    dbSchema: schema,
    dbPoolMax: 3,
    runMigrations: true,
    firebaseProjectId: TEST_PROJECT_ID,
    authEmulatorHost: TEST_AUTH_EMULATOR_HOST,
    rateLimit: { windowMs: 60_000, userMax: 100_000_000, publicMax: 100_000_000, internalMax: 100_000_000, allow: [] },
    ...overrides,
  };
}

/** buildApp with the test config; the caller may add routes, then calls ready()/inject(). */
export function buildTestApp(schema: string, overrides: Partial<ApiConfig> = {}): Promise<FastifyInstance> {
  return buildApp({ config: testConfig(schema, overrides), logger: false });
}
