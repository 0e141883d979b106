/**
 * The sandbox's clock: real time plus an offset that tests move forward
 * (POST /v1/test_helpers/clock/advance). The offset lives in the database, so a restarted
 * sandbox keeps the time it had reached. Every billing time (created, periods, retries) is on
 * this clock; webhook signatures use the real clock, since the receiver checks their age
 * against its own.
 */
import type { Db, Tx } from './db';

export class SandboxClock {
  private offsetSeconds = 0;

  constructor(private readonly pool: Db) {}

  /** Reads the stored offset (at start). */
  async load(): Promise<void> {
    const { rows } = await this.pool.query<{ offset_seconds: string }>('SELECT offset_seconds FROM clock');
    this.offsetSeconds = rows.length > 0 ? Number(rows[0].offset_seconds) : 0;
  }

  /** Unix seconds on the sandbox's clock. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offsetSeconds;
  }

  get offset(): number {
    return this.offsetSeconds;
  }

  /** Moves the clock forward by `seconds` (inside the billing transaction that runs what falls due). */
  async advance(tx: Tx, seconds: number): Promise<number> {
    const { rows } = await tx.query<{ offset_seconds: string }>(
      'UPDATE clock SET offset_seconds = offset_seconds + $1 RETURNING offset_seconds',
      [seconds],
    );
    this.offsetSeconds = Number(rows[0].offset_seconds);
    return this.now();
  }
}
