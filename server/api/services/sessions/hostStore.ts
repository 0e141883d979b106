/**
 * Rows of `hosts` as the session service reads and writes them: a host by id, its registration
 * and shutdown, the one statement of a heartbeat (beatHost) and the sessions a heartbeat found
 * missing (one predicate for both), and the one statement that sets a host Ready or Allocated
 * from its slot-holding sessions. hosts.ts (the registry) calls these and runs no SQL of its own;
 * the sweeper's Unhealthy writes are in sweeper.ts; allocation locks its candidates in
 * allocation.ts. Host states are the host ⇄ api contract's (server/shared/host-contract.ts).
 *
 * Both writers here change a row only when there is something to change, and a heartbeat is one
 * round trip (issue 14, docs/scale.md): at 10,000 players the hosts heartbeat hundreds to
 * thousands of times a second, so each statement and row version of theirs counts.
 */
import type pg from 'pg';
import type { HostState } from '../../../shared/host-contract';
import { HOLDING_STATES, type SessionRow } from '../sessionStore';

export interface HostRow {
  id: string;
  url: string;
  capacity: number;
  state: HostState;
  reported_warm?: number;
}

export async function hostById(db: pg.Pool, hostId: string): Promise<HostRow | null> {
  const { rows } = await db.query<HostRow>('SELECT id, url, capacity, state FROM hosts WHERE id = $1', [hostId]);
  return rows[0] ?? null;
}

/** What a host's row needs from a heartbeat. */
export interface Beat {
  activeSessions: number;
  warm: number;
  /** The sessions the host runs (absent: the host does not say, nothing is judged lost). */
  sessionIds?: string[];
  /** A session missing from `sessionIds` counts as lost only once allocated longer ago than this. */
  runtimeLostGraceMs: number;
}

export interface BeatResult {
  /** The host's state before the heartbeat. */
  before: HostState;
  /** Its state now: Shutdown stays, Unhealthy comes back, Ready/Allocated from its sessions. */
  state: HostState;
  /** Sessions holding a slot on the host, oldest allocation first (the heartbeat's answer). */
  live: string[];
  /** Sessions the api has running there that the host no longer lists (not yet failed). */
  missing: string[];
  /** Whether any session waits in the queue. */
  waiting: boolean;
}

/**
 * The host's sessions the api still runs there but the host's list (`ids`) leaves out, allocated
 * longer ago than the grace (a session just placed may not be listed yet). `host`, `ids` and
 * `graceMs` are the statement's parameter placeholders; beatHost reports these, lockMissingSessions
 * locks them to fail them.
 */
const missingSessions = (host: string, ids: string, graceMs: string) =>
  `host_id = ${host} AND state IN ('starting', 'ready', 'playing')
     AND allocated_at < now() - make_interval(secs => ${graceMs}::double precision / 1000)
     AND NOT (id::text = ANY(${ids}::text[]))`;

/** Registers (or re-registers) a host: Ready, no active sessions, stamped now. */
export async function upsertRegisteredHost(db: pg.Pool | pg.PoolClient, host: { hostId: string; url: string; capacity: number; warm?: number }): Promise<void> {
  await db.query(
    `INSERT INTO hosts (id, url, capacity, state, reported_active, reported_warm, registered_at, last_heartbeat_at, updated_at)
     VALUES ($1, $2, $3, 'Ready', 0, $4, now(), now(), now())
     ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, capacity = EXCLUDED.capacity, state = 'Ready',
       reported_active = 0, reported_warm = EXCLUDED.reported_warm, registered_at = now(),
       last_heartbeat_at = now(), updated_at = now()`,
    [host.hostId, host.url, host.capacity, host.warm ?? 0],
  );
}

/** Locks the host's row, then marks it Shutdown; false when there is no such host. */
export async function markHostShutdown(client: pg.PoolClient, hostId: string): Promise<boolean> {
  const { rows } = await client.query('SELECT id FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
  if (!rows[0]) return false;
  await client.query(`UPDATE hosts SET state = 'Shutdown', updated_at = now() WHERE id = $1`, [hostId]);
  return true;
}

/**
 * The sessions a heartbeat found missing, locked to be failed (in a transaction: the host's row
 * first, then theirs, the lock order of ../sessionStore.ts).
 */
export async function lockMissingSessions(client: pg.PoolClient, hostId: string, sessionIds: string[], graceMs: number): Promise<SessionRow[]> {
  await client.query('SELECT 1 FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
  const { rows } = await client.query<SessionRow>(`SELECT * FROM sessions WHERE ${missingSessions('$1', '$2', '$3')} FOR UPDATE`, [hostId, sessionIds, graceMs]);
  return rows;
}

/**
 * One heartbeat in one statement: the row is locked (the lock order of ../sessionStore.ts: host
 * rows first), stamped with PostgreSQL's `now()` (liveness is judged by the database's clock) and
 * given its state from its sessions, and the answer's lists are read in the same round trip.
 * Sessions found missing are only reported: failing them takes row locks (hosts.ts does it in a
 * transaction, the rare path). Null: no such host.
 */
export async function beatHost(db: pg.Pool, hostId: string, beat: Beat): Promise<BeatResult | null> {
  const { rows } = await db.query<BeatResult>(
    `WITH prev AS (SELECT id, state FROM hosts WHERE id = $1 FOR UPDATE),
     beat AS (
       UPDATE hosts h SET last_heartbeat_at = now(), reported_active = $2, reported_warm = $3, updated_at = now(),
         state = CASE WHEN h.state = 'Shutdown' THEN 'Shutdown'
                      WHEN EXISTS (SELECT 1 FROM sessions s WHERE s.host_id = $1 AND s.state = ANY($4::text[])) THEN 'Allocated'
                      ELSE 'Ready' END
       FROM prev WHERE h.id = prev.id
       RETURNING prev.state AS before, h.state AS state
     )
     SELECT beat.before, beat.state,
       ARRAY(SELECT id::text FROM sessions WHERE host_id = $1 AND state = ANY($4::text[]) ORDER BY allocated_at) AS live,
       CASE WHEN $5::text[] IS NULL THEN ARRAY[]::text[] ELSE ARRAY(
         SELECT id::text FROM sessions WHERE ${missingSessions('$1', '$5', '$6')}) END AS missing,
       EXISTS (SELECT 1 FROM sessions WHERE state = 'queued') AS waiting
     FROM beat`,
    [hostId, beat.activeSessions, beat.warm, HOLDING_STATES, beat.sessionIds ?? null, beat.runtimeLostGraceMs],
  );
  return rows[0] ?? null;
}

/**
 * Sets a host Ready or Allocated from its live sessions (Shutdown and Unhealthy stay); a host
 * already in that state is not written. Runs on its own, after the transaction that changed a
 * session committed (see the lock order in ../sessionStore.ts).
 */
export async function refreshHostState(db: pg.Pool | pg.PoolClient, hostId: string | null): Promise<void> {
  if (!hostId) return;
  await db.query(
    `WITH target AS (
       SELECT CASE WHEN EXISTS (SELECT 1 FROM sessions WHERE host_id = $1 AND state = ANY($2::text[])) THEN 'Allocated'
                   ELSE 'Ready' END AS state
     )
     UPDATE hosts SET updated_at = now(), state = target.state
     FROM target
     WHERE id = $1 AND hosts.state IN ('Ready', 'Allocated') AND hosts.state <> target.state`,
    [hostId, HOLDING_STATES],
  );
}
