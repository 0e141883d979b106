/**
 * The SQL behind the api's probes and gauges (routes/health.ts and plugins/metrics.ts run none):
 * PostgreSQL answering `SELECT 1` within a bound, every migration file applied, and live sessions
 * by state. A probe that fails throws a typed 503 service_unavailable (the cause goes to the log
 * only). docs/operations.md.
 */
import type pg from 'pg';
import { LIVE_SESSION_STATES, type SessionState } from '../../../lib/api-types/sessions';
import { loadMigrations } from '../db/migrate';
import { ApiError } from '../errors';

/** A probe never waits longer than this for PostgreSQL (the pool's connect timeout is 5 s). */
export const PROBE_TIMEOUT_MS = 2_000;

/** `work`, or a rejection after `ms` (the query itself is bounded by query_timeout too). */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function query<R extends pg.QueryResultRow>(db: pg.Pool, text: string, values: unknown[] = [], ms = PROBE_TIMEOUT_MS): Promise<pg.QueryResult<R>> {
  return bounded(db.query<R>({ text, values, query_timeout: ms } as pg.QueryConfig), ms);
}

export async function checkDatabase(db: pg.Pool, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  try {
    await query(db, 'SELECT 1', [], timeoutMs);
  } catch (error) {
    throw new ApiError('service_unavailable', undefined, { cause: error });
  }
}

/**
 * Whether every migration file of this build is recorded in schema_migrations. Once true it
 * stays true for the process (migrations are never undone), so later probes cost nothing.
 */
export class MigrationCheck {
  private done = false;
  private versions: Promise<number[]> | null = null;

  constructor(
    private readonly db: pg.Pool,
    private readonly dir?: string,
  ) {}

  async check(): Promise<void> {
    if (this.done) return;
    this.versions ??= loadMigrations(this.dir).then((files) => files.map((m) => m.version));
    const wanted = await this.versions;
    let applied: Set<number>;
    try {
      const { rows } = await query<{ version: number }>(this.db, 'SELECT version FROM schema_migrations');
      applied = new Set(rows.map((row) => row.version));
    } catch (error) {
      throw new ApiError('service_unavailable', undefined, { cause: error });
    }
    const missing = wanted.filter((version) => !applied.has(version));
    if (missing.length > 0) {
      throw new ApiError('service_unavailable', undefined, { cause: new Error(`migrations not applied: ${missing.join(', ')}`) });
    }
    this.done = true;
  }
}

/** Live sessions (every state but closed and failed) by state, zeros included. */
export async function liveSessionCounts(db: pg.Pool): Promise<Record<SessionState, number>> {
  const { rows } = await query<{ state: SessionState; n: number }>(
    db,
    `SELECT state, count(*)::int AS n FROM sessions WHERE state NOT IN ('closed', 'failed') GROUP BY state`,
  );
  const counts = Object.fromEntries(LIVE_SESSION_STATES.map((state) => [state, 0])) as Record<SessionState, number>;
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}
