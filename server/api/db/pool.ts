/**
 * The api's PostgreSQL pool: one per process (plugins/db.ts), with the time limits of
 * config.ts `DatabaseTimeouts` (docs/reliability.md): the server cancels statements that run too
 * long (`statement_timeout`), the client gives up on an answer that does not come
 * (`query_timeout`, e.g. a stalled server) and on a connection it cannot get
 * (`connectionTimeoutMillis`). A connection whose query timed out is closed, never reused: its
 * statement may still run (or its transaction still be open) once the server wakes up.
 * `isDatabaseUnavailable` tells these failures apart from bugs (503 instead of 500).
 */
import pg from 'pg';
import { loadDatabaseTimeouts, type DatabaseTimeouts } from '../config';

export interface PoolOptions {
  databaseUrl: string;
  /** Put first on the search_path; must be a plain identifier. Tests use one schema per run. */
  schema?: string;
  max?: number;
  /** Who we are in pg_stat_activity. */
  applicationName?: string;
  /** Time limits; default: from the environment (DATABASE_*_TIMEOUT_MS, config.ts). */
  timeouts?: DatabaseTimeouts;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: "${name}"`);
  return name;
}

/** The message pg gives a query whose answer did not come within query_timeout. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

type QueryCallback = (error: Error | null, result?: unknown) => void;

/**
 * pg's client, except that a query that timed out ends the connection. pg leaves the connection
 * open with the statement still in flight: handed back to the pool, the next user's queries
 * would queue behind it, and a transaction whose ROLLBACK was dropped would stay open and be
 * committed by the next user's COMMIT. `end()` on a busy connection destroys the socket (the
 * server rolls back when it wakes up), and the pool drops a client that is ending.
 */
class GuardedClient extends pg.Client {
  // pg's query() has a dozen overloads; this wrapper only looks at the callback or the promise.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.length > 0 ? args[args.length - 1] : undefined;
    if (typeof last === 'function') {
      const callback = last as QueryCallback;
      args[args.length - 1] = (error: Error | null, result?: unknown) => {
        if (error) this.afterFailure(error);
        callback(error, result);
      };
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (error: unknown) => this.afterFailure(error));
    }
    return result;
  }

  private afterFailure(error: unknown): void {
    if (error instanceof Error && error.message === QUERY_TIMEOUT_MESSAGE) this.end().catch(() => undefined);
  }
}

export function createPool(options: PoolOptions): pg.Pool {
  const timeouts = options.timeouts ?? loadDatabaseTimeouts();
  return new pg.Pool({
    Client: GuardedClient,
    connectionString: options.databaseUrl,
    max: options.max ?? 10,
    // Fail fast when the server is down or stalled instead of hanging the request (503).
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Sent at connect time: the server cancels longer statements (SQLSTATE 57014).
    statement_timeout: timeouts.statementTimeoutMs || undefined,
    // Client side: an answer that does not come (a stalled server) fails the query.
    query_timeout: timeouts.queryTimeoutMs || undefined,
    application_name: options.applicationName ?? 'yumecast-api',
    // A startup parameter rather than a SET after connect: it holds for every pooled connection.
    // public stays second so extensions installed there remain visible.
    options: options.schema ? `-c search_path=${assertIdentifier(options.schema)},public` : undefined,
  });
}

/**
 * True for errors that mean "the database is unreachable, stalled or shutting down" rather than
 * "this query is wrong": those answer 503 service_unavailable, the others 500 internal.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code)) return true;
    // SQLSTATE class 08 (connection exception), 57014 (statement timeout), 57P01-57P03 (admin
    // shutdown, crash, cannot connect now).
    if (/^08/.test(code) || code === '57014' || /^57P0[1-3]$/.test(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable/i.test(message)
  );
}
