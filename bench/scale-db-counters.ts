/**
 * What bench/scale-db.ts reads to count PostgreSQL's work per call: the statements the app sends
 * (pg.Client#query wrapped in this process, by kind) and the server's own counters (rows written
 * in the bench's schema from pg_stat_user_tables, commits from pg_stat_database, WAL bytes from
 * pg_current_wal_lsn), with the flush that makes backends report their table counters.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

// statements the app sends, counted per kind

export type Kind = 'read' | 'write' | 'tx';
export const counted = { read: 0, write: 0, tx: 0 };
/** Connections of our own pools (stats readers): not counted. */
export const ours = new WeakSet<object>();

export function kindOf(sql: string): Kind {
  const text = sql.trimStart().toUpperCase();
  if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|START)/.test(text)) return 'tx';
  if (/^(INSERT|UPDATE|DELETE)/.test(text)) return 'write';
  if (/^WITH/.test(text) && /\b(INSERT|UPDATE|DELETE)\b/.test(text)) return 'write';
  return 'read';
}

export function countStatements(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    if (!ours.has(this)) {
      const first = args[0];
      const sql = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      if (sql) counted[kindOf(sql)]++;
    }
    return original.apply(this, args);
  };
}

// ── the server's counters ────────────────────────────────────────────────────────────────────

export interface ServerCounters {
  ins: number;
  upd: number;
  hot: number;
  del: number;
  commits: number;
  walBytes: number;
}

export async function serverCounters(stats: pg.Pool, schema: string): Promise<ServerCounters> {
  const client = await stats.connect();
  try {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ ins: string; upd: string; hot: string; del: string }>(
      `SELECT coalesce(sum(n_tup_ins), 0) AS ins, coalesce(sum(n_tup_upd), 0) AS upd,
              coalesce(sum(n_tup_hot_upd), 0) AS hot, coalesce(sum(n_tup_del), 0) AS del
       FROM pg_stat_user_tables WHERE schemaname = $1`,
      [schema],
    );
    const { rows: db } = await client.query<{ commits: string; wal: string }>(
      `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
              pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal`,
    );
    return {
      ins: Number(rows[0].ins),
      upd: Number(rows[0].upd),
      hot: Number(rows[0].hot),
      del: Number(rows[0].del),
      commits: Number(db[0].commits),
      walBytes: Number(db[0].wal),
    };
  } finally {
    client.release();
  }
}

/**
 * Backends report their table counters when they go idle, at most once a second: wait a second,
 * then run one statement on every connection of the app's pool so each reports what it did.
 */
export async function flushAppCounters(app: FastifyInstance): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const pool = app.db;
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  await Promise.all(clients.map((client) => client.query('SELECT pg_stat_force_next_flush()')));
  for (const client of clients) client.release();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

