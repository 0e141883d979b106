import {
  nextBackoffMs,
  refreshDelayMs,
  TokenRefresher,
  TOKEN_REFRESH_BEFORE_EXPIRY_MS,
  TOKEN_RETRY_BACKOFF_MAX_MS,
  TOKEN_RETRY_BACKOFF_MIN_MS,
} from './tokenManager';

const MIN = 60_000;

describe('token refresh constants (spec section 9)', () => {
  it('refreshes 5 minutes before expiry and backs off from 30 s up to 960 s', () => {
    expect(TOKEN_REFRESH_BEFORE_EXPIRY_MS).toBe(5 * MIN);
    expect(TOKEN_RETRY_BACKOFF_MIN_MS).toBe(30_000);
    expect(TOKEN_RETRY_BACKOFF_MAX_MS).toBe(960_000);
  });

  it('computes the delay to 5 minutes before expiry, never negative', () => {
    expect(refreshDelayMs(60 * MIN, 0)).toBe(55 * MIN);
    expect(refreshDelayMs(4 * MIN, 0)).toBe(0);
    expect(refreshDelayMs(0, 10 * MIN)).toBe(0);
  });

  it('doubles the back-off: 30, 60, 120, 240, 480, 960, 960 s', () => {
    const seq: number[] = [];
    let b: number | null = null;
    for (let i = 0; i < 7; i++) seq.push((b = nextBackoffMs(b)) / 1000);
    expect(seq).toEqual([30, 60, 120, 240, 480, 960, 960]);
  });
});

describe('TokenRefresher with fake timers', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.setSystemTime(new Date('2030-01-01T00:00:00Z'));
  });
  afterEach(() => jest.useRealTimers());

  /** A token source whose tokens live one hour. */
  function source(failures = 0) {
    let calls = 0;
    const refresh = jest.fn(async () => {
      calls += 1;
      if (calls <= failures) throw new Error('network');
      return Date.now() + 60 * MIN;
    });
    return refresh;
  }

  async function advance(ms: number) {
    await jest.advanceTimersByTimeAsync(ms);
  }

  it('refreshes exactly 5 minutes before the token expires, then again for the new token', async () => {
    const refresh = source();
    const r = new TokenRefresher({ refresh });
    r.track(Date.now() + 60 * MIN);
    await advance(55 * MIN - 1);
    expect(refresh).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await advance(55 * MIN);
    expect(refresh).toHaveBeenCalledTimes(2);
    r.stop();
  });

  it('refreshes at once when the token is already within 5 minutes of expiry', async () => {
    const refresh = source();
    const r = new TokenRefresher({ refresh });
    r.track(Date.now() + 2 * MIN);
    await advance(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    r.stop();
  });

  it('retries failures after 30 s, doubling up to 960 s, and resets after a success', async () => {
    const refresh = source(7);
    const onError = jest.fn();
    const r = new TokenRefresher({ refresh, onError });
    r.track(Date.now()); // due now
    await advance(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    const waits = [30, 60, 120, 240, 480, 960, 960];
    for (const [i, s] of waits.entries()) {
      expect(r.currentBackoffMs).toBe(s * 1000);
      await advance(s * 1000 - 1);
      expect(refresh).toHaveBeenCalledTimes(i + 1);
      await advance(1);
      expect(refresh).toHaveBeenCalledTimes(i + 2);
    }
    // The 8th call succeeded: back to the normal schedule (55 min) and no back-off.
    expect(onError).toHaveBeenCalledTimes(7);
    expect(r.currentBackoffMs).toBeNull();
    expect(r.nextRefreshAt).toBe(Date.now() + 55 * MIN);
    r.stop();
  });

  it('reschedules when a new token is tracked, and stops on sign-out', async () => {
    const refresh = source();
    const r = new TokenRefresher({ refresh });
    r.track(Date.now() + 60 * MIN);
    await advance(30 * MIN);
    r.track(Date.now() + 60 * MIN); // e.g. the SDK refreshed it on its own
    await advance(30 * MIN);
    expect(refresh).not.toHaveBeenCalled();
    r.stop();
    await advance(120 * MIN);
    expect(refresh).not.toHaveBeenCalled();
    expect(r.nextRefreshAt).toBeNull();
  });

  it('runs an overdue refresh when woken (throttled background timers)', async () => {
    const refresh = source();
    let now = Date.now();
    const pending: Array<() => void> = [];
    const r = new TokenRefresher({
      refresh,
      clock: { now: () => now, setTimeout: (fn) => pending.push(fn), clearTimeout: () => undefined },
    });
    r.track(now + 60 * MIN);
    r.wake();
    expect(refresh).not.toHaveBeenCalled(); // not due yet
    now += 56 * MIN; // the timer never fired (tab in the background)
    r.wake();
    await Promise.resolve();
    expect(refresh).toHaveBeenCalledTimes(1);
    r.stop();
  });

  it('refreshNow shares one refresh between concurrent callers', async () => {
    const refresh = source();
    const r = new TokenRefresher({ refresh });
    r.track(Date.now() + 60 * MIN);
    await Promise.all([r.refreshNow(), r.refreshNow()]);
    expect(refresh).toHaveBeenCalledTimes(1);
    r.stop();
  });
});
