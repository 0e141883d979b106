/**
 * The timers a play keeps while it runs (spec section 4, DESIGN §4), apart from the flow that
 * starts and connects it (playController.ts): the loops of a playing session (WebRTC stats every
 * 10 s, the host watched through the status every 5 s, a ping every 5 s), the idle warning's
 * countdown, and the close after 4 minutes in the background. One place starts and stops them all,
 * so an ended play leaves no timer behind.
 */

export const STATS_INTERVAL_MS = 10_000;
export const BACKGROUND_CLOSE_MS = 4 * 60_000;
const HOST_WATCH_MS = 5_000;
const PING_MS = 5_000;

/** What the playing loops do each time (the controller's). */
export interface PlayLoopHandlers {
  stats(): void;
  watchHost(): void;
  ping(): void;
}

export class PlayTimers {
  private loops: ReturnType<typeof setInterval>[] = [];
  private idle: ReturnType<typeof setInterval> | null = null;
  private background: ReturnType<typeof setTimeout> | null = null;

  /** The loops of a playing session (once the video plays). */
  startLoops(h: PlayLoopHandlers): void {
    this.loops.push(setInterval(h.stats, STATS_INTERVAL_MS), setInterval(h.watchHost, HOST_WATCH_MS), setInterval(h.ping, PING_MS));
  }

  /** The idle warning: `tick` gets the seconds left now and once a second after, down to 0. */
  idleCountdown(seconds: number, tick: (secondsLeft: number) => void): void {
    this.stopIdle();
    let left = seconds;
    tick(left);
    this.idle = setInterval(() => {
      left -= 1;
      tick(Math.max(0, left));
      if (left <= 0) this.stopIdle();
    }, 1000);
  }

  /** Input came: the idle warning's countdown stops. */
  stopIdle(): void {
    if (this.idle) clearInterval(this.idle);
    this.idle = null;
  }

  /** Hidden: `onTimeout` after BACKGROUND_CLOSE_MS unless shown again; shown: disarmed. */
  setBackground(hidden: boolean, onTimeout: () => void): void {
    if (this.background) clearTimeout(this.background);
    this.background = hidden ? setTimeout(onTimeout, BACKGROUND_CLOSE_MS) : null;
  }

  /** Every timer stopped (the play ended or failed). */
  stopAll(): void {
    for (const t of this.loops) clearInterval(t);
    this.loops = [];
    this.stopIdle();
    this.setBackground(false, () => undefined);
  }
}

/** Waits `ms`, or rejects with an AbortError when `signal` aborts first. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });
