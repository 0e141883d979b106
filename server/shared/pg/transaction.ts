/**
 * The one transaction helper of our PostgreSQL code (api services and the payments sandbox): runs
 * `fn` inside BEGIN/COMMIT on one pooled connection, rolls back on any error and always hands the
 * connection back.
 */
import type pg from 'pg';

export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
