import pg from 'pg';

export interface PoolOptions {
  databaseUrl: string;
  /** Put first on the search_path; must be a plain identifier. Tests use one schema per run. */
  schema?: string;
  max?: number;
  /** Who we are in pg_stat_activity. */
  applicationName?: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: "${name}"`);
  return name;
}

export function createPool(options: PoolOptions): pg.Pool {
  return new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.max ?? 10,
    // Fail fast when the server is down instead of hanging the request (health answers 503).
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'yumecast-api',
    // A startup parameter rather than a SET after connect: it holds for every pooled connection.
    // public stays second so extensions installed there remain visible.
    options: options.schema ? `-c search_path=${assertIdentifier(options.schema)},public` : undefined,
  });
}

/**
 * True for errors that mean "the database is unreachable or shutting down" rather than "this
 * query is wrong": those answer 503 service_unavailable, the others 500 internal.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash, cannot connect now).
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
  }
  return typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated/i.test(message);
}
