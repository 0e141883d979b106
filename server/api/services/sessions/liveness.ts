/**
 * "A stall of the judge does not condemn the judged" (docs/reliability.md). The sweeper fails
 * hosts whose last heartbeat is older than HOST_HEARTBEAT_TIMEOUT_MS, and sessions whose player
 * or host has not reported for a while; but evidence only counts as missing if this api process
 * could have stored it. While PostgreSQL is stalled or unreachable (or this process itself is
 * paused, or just started), no heartbeat, report or poll can be written, however healthy the
 * host and the player are.
 *
 * So each session service keeps one `DatabaseContact`: every successful round trip to PostgreSQL
 * of the sweeper and of a host's heartbeat is recorded on the process's monotonic clock. Two
 * successes further apart than half the heartbeat timeout (or one round trip that long) is a
 * gap: the contact is "clear" again only a full heartbeat timeout after the gap, which is the
 * fresh grace hosts (heartbeating every third of the timeout) and players need to get their
 * evidence in. The process start counts as a gap. Ages themselves are PostgreSQL's: heartbeats
 * are written with `now()` and compared with `now()`, so the api's clock never enters them.
 */
import type { SessionContext } from './context';

/** Continuous contact with PostgreSQL, as one api process saw it. */
export class DatabaseContact {
  private lastAt: number;
  private clearSince: number;
  /** When the last gap after the start was seen (null: none yet). */
  private lastGapAt: number | null = null;
  private contacted = false;

  /**
   * @param maxGapMs successes further apart than this are a gap (the sweeper uses half the
   *   heartbeat timeout: a shorter outage cannot age a heartbeat past the timeout by itself)
   * @param now the monotonic time of construction (the process start counts as a gap)
   */
  constructor(
    readonly maxGapMs: number,
    now: number = monotonicNow(),
  ) {
    this.lastAt = now;
    this.clearSince = now;
  }

  /** A round trip to PostgreSQL sent at `sentAt` (monotonicNow()) has just succeeded. */
  succeeded(sentAt: number, now: number = monotonicNow()): void {
    if (now - this.lastAt > this.maxGapMs || now - sentAt > this.maxGapMs) {
      this.clearSince = now;
      // a slow first contact is the start's gap, not an outage
      if (this.contacted) this.lastGapAt = now;
    }
    this.contacted = true;
    this.lastAt = Math.max(this.lastAt, now);
  }

  /** Has contact been continuous (no gap, counting the start as one) for at least `windowMs` up to now? */
  clearFor(windowMs: number, now: number = monotonicNow()): boolean {
    return now - this.clearSince >= windowMs && now - this.lastAt <= this.maxGapMs;
  }

  /** Like clearFor, but the process start does not count: no gap seen since, or none within `windowMs`. */
  quietFor(windowMs: number, now: number = monotonicNow()): boolean {
    return (this.lastGapAt === null || now - this.lastGapAt >= windowMs) && now - this.lastAt <= this.maxGapMs;
  }

  /** Milliseconds since the last gap (for logs and tests). */
  clearMs(now: number = monotonicNow()): number {
    return now - this.clearSince;
  }
}

/** Milliseconds on a clock that never jumps (not the wall clock) and counts while paused. */
export function monotonicNow(): number {
  return performance.now();
}

const contacts = new WeakMap<SessionContext, DatabaseContact>();

/** The one DatabaseContact of a session service (the sweeper and the host registry share it). */
export function databaseContact(ctx: SessionContext): DatabaseContact {
  let contact = contacts.get(ctx);
  if (!contact) {
    contact = new DatabaseContact(Math.max(1, ctx.config.hostHeartbeatTimeoutMs / 2));
    contacts.set(ctx, contact);
  }
  return contact;
}
