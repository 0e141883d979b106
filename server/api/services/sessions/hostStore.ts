/**
 * Rows of `hosts` as the session service reads them: a host by id, and the one statement that
 * sets a host Ready or Allocated from its slot-holding sessions. The registry's own writes
 * (register, heartbeat, shutdown, Unhealthy) are in hosts.ts and sweeper.ts; allocation locks its
 * candidates in allocation.ts. Host states are the host ⇄ api contract's (server/shared/host-contract.ts).
 */
import type pg from 'pg';
import type { HostState } from '../../../shared/host-contract';
import { HOLDING_STATES } from '../sessionStore';

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

/**
 * Sets a host Ready or Allocated from its live sessions (Shutdown and Unhealthy stay). Runs on
 * its own, after the transaction that changed a session committed (see the lock order in
 * ../sessionStore.ts).
 */
export async function refreshHostState(db: pg.Pool | pg.PoolClient, hostId: string | null): Promise<void> {
  if (!hostId) return;
  await db.query(
    `UPDATE hosts SET updated_at = now(), state = CASE
         WHEN EXISTS (SELECT 1 FROM sessions WHERE host_id = $1 AND state = ANY($2::text[])) THEN 'Allocated'
         ELSE 'Ready' END
     WHERE id = $1 AND state IN ('Ready', 'Allocated')`,
    [hostId, HOLDING_STATES],
  );
}
