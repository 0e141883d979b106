/**
 * The host's flood control for player messages: a token bucket each raw message must pass before
 * it is parsed (lib/streaming/messages.ts) and reaches the game. A flood of input is dropped and
 * counted, never queued. Shared wire module: the host's bridge uses it, its rates are the
 * protocol's promise to players (docs/streaming.md).
 */

export interface RateLimiterOptions {
  /** Tokens added per second (sustained messages per second). Default 60. */
  ratePerSecond?: number;
  /** Bucket size (largest burst). Default 120. */
  burst?: number;
  /** Clock in milliseconds; default performance.now / Date.now. */
  now?: () => number;
}

/**
 * Token bucket: each message takes one token; tokens refill at `ratePerSecond` up to `burst`.
 * `take()` returns false when the bucket is empty (drop the message). Counts what it dropped.
 */
export class RateLimiter {
  readonly ratePerSecond: number;
  readonly burst: number;
  private tokens: number;
  private last: number;
  private readonly now: () => number;
  /** Messages refused since creation. */
  dropped = 0;
  /** Messages allowed since creation. */
  allowed = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.ratePerSecond = options.ratePerSecond ?? 60;
    this.burst = options.burst ?? 120;
    if (!(this.ratePerSecond > 0) || !(this.burst >= 1)) {
      throw new RangeError('RateLimiter: ratePerSecond must be > 0 and burst >= 1');
    }
    this.now =
      options.now ??
      (typeof performance !== 'undefined' ? () => performance.now() : () => Date.now());
    this.tokens = this.burst;
    this.last = this.now();
  }

  private refill(): void {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.last = t;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSecond) / 1000);
  }

  /** Takes `cost` tokens if available. */
  take(cost = 1): boolean {
    this.refill();
    if (this.tokens + 1e-9 >= cost) {
      this.tokens = Math.max(0, this.tokens - cost);
      this.allowed++;
      return true;
    }
    this.dropped++;
    return false;
  }

  /** Tokens currently available (after refill). */
  available(): number {
    this.refill();
    return this.tokens;
  }
}
