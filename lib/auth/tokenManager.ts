/**
 * Keeps the ID token fresh (spec section 9, "authentication service"): a refresh is scheduled
 * 5 minutes before the token expires; a failed refresh is retried after 30 s, doubling up to
 * 960 s, and the back-off resets after a success. Each refresh also brings the custom claims
 * (paymentExpirationTime) up to date, since the server sets them on the account, not the token.
 *
 * The scheduling is pure (clock and timers are injected) so it is unit-tested with fake timers;
 * startTokenManager in lib/auth/listener.ts wires it to Firebase.
 */
export const TOKEN_REFRESH_BEFORE_EXPIRY_MS = 5 * 60 * 1000;
export const TOKEN_RETRY_BACKOFF_MIN_MS = 30 * 1000;
export const TOKEN_RETRY_BACKOFF_MAX_MS = 960 * 1000;

/** Delay until the refresh of a token that expires at `expiresAtMs`: 5 min before, never negative. */
export function refreshDelayMs(expiresAtMs: number, nowMs: number): number {
  return Math.max(0, expiresAtMs - nowMs - TOKEN_REFRESH_BEFORE_EXPIRY_MS);
}

/** Next back-off after a failure: 30 s first, then doubled, capped at 960 s. */
export function nextBackoffMs(previousMs: number | null): number {
  if (previousMs === null) return TOKEN_RETRY_BACKOFF_MIN_MS;
  return Math.min(previousMs * 2, TOKEN_RETRY_BACKOFF_MAX_MS);
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface TokenRefresherOptions {
  /** Forces a new token; resolves to its expiry (ms since epoch). */
  refresh: () => Promise<number>;
  clock?: Clock;
  /** Told about every failure (for logs); the refresher retries by itself. */
  onError?: (error: unknown) => void;
}

export class TokenRefresher {
  private readonly clock: Clock;
  private timer: unknown = null;
  private backoff: number | null = null;
  private expiresAt: number | null = null;
  private dueAt: number | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: TokenRefresherOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** A token was obtained (sign-in, our refresh or the SDK's own): schedule its refresh. */
  track(expiresAtMs: number): void {
    this.stopped = false;
    this.expiresAt = expiresAtMs;
    if (this.inFlight) return; // the running refresh schedules the next one
    this.backoff = null;
    this.schedule(refreshDelayMs(expiresAtMs, this.clock.now()));
  }

  /** No user any more: nothing to refresh. */
  stop(): void {
    this.stopped = true;
    this.expiresAt = null;
    this.backoff = null;
    this.clear();
  }

  /**
   * The tab became visible or the network came back: timers of background tabs are throttled,
   * so a refresh that is due (or overdue) runs now instead of whenever the timer fires.
   */
  wake(): void {
    if (this.stopped || this.inFlight || this.dueAt === null) return;
    if (this.clock.now() >= this.dueAt) {
      this.clear();
      void this.run();
    }
  }

  /** Refresh at once (e.g. after the server changed the claims); resolves when done. */
  refreshNow(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.clear();
    return this.run();
  }

  /** When the next refresh is due (ms since epoch), or null; for tests and diagnostics. */
  get nextRefreshAt(): number | null {
    return this.dueAt;
  }

  get currentBackoffMs(): number | null {
    return this.backoff;
  }

  private schedule(delayMs: number): void {
    this.clear();
    if (this.stopped) return;
    this.dueAt = this.clock.now() + delayMs;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delayMs);
  }

  private clear(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = null;
  }

  private run(): Promise<void> {
    const p = (async () => {
      try {
        const expiresAt = await this.options.refresh();
        this.inFlight = null;
        this.backoff = null;
        this.expiresAt = expiresAt;
        this.schedule(refreshDelayMs(expiresAt, this.clock.now()));
      } catch (error) {
        this.inFlight = null;
        this.options.onError?.(error);
        this.backoff = nextBackoffMs(this.backoff);
        this.schedule(this.backoff);
      }
    })();
    this.inFlight = p;
    return p;
  }
}
