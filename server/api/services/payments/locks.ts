/**
 * One lock per user around every payment change (subscribe, confirm, cancel, resume, card
 * change, a webhook's sync, a payment request): a PostgreSQL session advisory lock held on one
 * pooled connection, which the work then uses for its queries. It serialises a double click, a
 * webhook arriving while the purchase request is still running, and two writers of the
 * paymentExpirationTime claim, so the last write always comes from the freshest read of the
 * processor. Writes inside are not one transaction: what the processor already did is recorded
 * at once, and a failure later in the request does not roll it back.
 */
import type pg from 'pg';
import { ApiError } from '../../errors';

/** How long a request waits for the user's other payment request to finish. */
const LOCK_TIMEOUT = '20s';

export async function withUserLock<T>(pool: pg.Pool, uid: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const key = ['yumecast.payments', uid];
  let broken: Error | undefined;
  try {
    await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
    try {
      await client.query('SELECT pg_advisory_lock(hashtext(current_schema() || $1), hashtext($2))', key);
    } catch (error) {
      // 55P03 lock_not_available: the user's other request is still running.
      if ((error as { code?: unknown }).code === '55P03') throw new ApiError('idempotency_conflict', undefined, { cause: error });
      throw error;
    }
    try {
      return await fn(client);
    } finally {
      await client
        .query('SELECT pg_advisory_unlock(hashtext(current_schema() || $1), hashtext($2))', key)
        .catch((error: Error) => {
          broken = error;
        });
    }
  } finally {
    await client.query('RESET lock_timeout').catch((error: Error) => {
      broken ??= error;
    });
    // A connection that may still hold the lock is destroyed, never returned to the pool.
    client.release(broken);
  }
}
