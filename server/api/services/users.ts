/**
 * The `users` table: one row per Firebase uid, with when we last saw it. GET /v1/me records the
 * caller here (routes/me.ts runs no SQL); the session tables reference these rows.
 */
import type pg from 'pg';

export class UserService {
  constructor(private readonly db: pg.Pool) {}

  /** Records the user (first seen on insert) and stamps last_seen_at. */
  async touch(uid: string): Promise<void> {
    await this.db.query(
      `INSERT INTO users (uid, last_seen_at) VALUES ($1, now())
       ON CONFLICT (uid) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [uid],
    );
  }
}
