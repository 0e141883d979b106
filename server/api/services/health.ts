/**
 * The readiness probe behind GET /health (routes/health.ts runs no SQL): PostgreSQL answering
 * `SELECT 1`, or a typed 503 service_unavailable (the cause goes to the log only).
 */
import type pg from 'pg';
import { ApiError } from '../errors';

export async function checkDatabase(db: pg.Pool): Promise<void> {
  try {
    await db.query('SELECT 1');
  } catch (error) {
    throw new ApiError('service_unavailable', undefined, { cause: error });
  }
}
