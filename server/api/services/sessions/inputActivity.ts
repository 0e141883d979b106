/**
 * The write window of input-activity reports (reports.ts, issue 14, docs/scale.md). Hosts report a
 * session's input at most every 5 s while the player plays; at 10,000 players that is up to 2,000
 * row writes a second, the largest stream of writes the api sends PostgreSQL. The idle rule only
 * needs the latest input time, well before its 210 s, so each api process writes a session's time
 * at most once per window:
 * - the first report of a session (or the first after a quiet window) is written at once, so the
 *   report a host sends right after an idle warning lands immediately;
 * - reports inside the window are kept (the latest time) and written when the window ends, so
 *   the stored time is never older than the last report by more than the window, and the value
 *   written is the exact last one (only its writing waits);
 * - a window with nothing kept ends the session's entry: memory is one entry per session with
 *   input in the last window.
 * Several api processes each keep their own windows; the write uses `greatest`, so the stored
 * time only moves forward. A process that dies loses at most one window of kept reports.
 */
import type { SessionConfig } from '../sessionConfig';

/**
 * The window: SESSION_INPUT_ACTIVITY_WRITE_MS (`inputActivityWriteMs`, 15 s), never more than a
 * tenth of the idle time (SESSION_IDLE_CLOSE_MS, 210 s by default), so the stored time is always
 * far younger than the idle rule's limit while input goes on.
 */
export function inputActivityWriteMs(config: SessionConfig): number {
  return Math.min(config.inputActivityWriteMs, Math.floor(config.idleCloseMs / 10));
}

interface Entry {
  hostId: string;
  /** The latest time reported inside the window and not yet written (epoch ms), or null. */
  kept: number | null;
  timer: NodeJS.Timeout;
}

export type WriteKept = (hostId: string, sessionId: string, when: number) => void;

export class InputActivityWindow {
  private readonly entries = new Map<string, Entry>();

  /**
   * @param windowMs 0 writes every report (no window)
   * @param writeKept writes a kept time when its window ends (the caller tracks the promise)
   */
  constructor(
    private readonly windowMs: number,
    private readonly writeKept: WriteKept,
  ) {}

  /**
   * A report: true when it was kept for the end of the window (write nothing now), false when
   * the caller writes it now (a window then opens for the session).
   */
  defer(hostId: string, sessionId: string, when: number): boolean {
    if (this.windowMs <= 0) return false;
    const entry = this.entries.get(sessionId);
    if (entry && entry.hostId === hostId) {
      entry.kept = Math.max(entry.kept ?? 0, when);
      return true;
    }
    if (!entry) this.open(hostId, sessionId);
    return false;
  }

  /** The session's report was refused (not this host's session): no window for it. */
  forget(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(sessionId);
  }

  /** Writes every kept time now and closes every window (an api stopping). */
  flushAll(): void {
    for (const [sessionId, entry] of this.entries) {
      clearTimeout(entry.timer);
      if (entry.kept !== null) this.writeKept(entry.hostId, sessionId, entry.kept);
    }
    this.entries.clear();
  }

  /** Sessions with an open window (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  private open(hostId: string, sessionId: string): void {
    const timer = setTimeout(() => this.close(sessionId), this.windowMs);
    timer.unref();
    this.entries.set(sessionId, { hostId, kept: null, timer });
  }

  private close(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    if (entry.kept === null) return;
    // Written now: a new window starts, so the next reports are kept again.
    this.writeKept(entry.hostId, sessionId, entry.kept);
    this.open(entry.hostId, sessionId);
  }
}
