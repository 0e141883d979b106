/**
 * The runtime pool: at most `capacity` runtimes at once (busy + warm + launching), `warm` of them
 * kept ready (context + runtime page + bridge loaded) so a session starts in ~0.25 s instead of
 * a cold start. A runtime serves one session; release() closes it and kills its processes (and its
 * browser's, when no other runtime uses that browser) and the pool makes a fresh warm one in its
 * place (recycle, never reuse). The runtimes' browsers (up to `runtime.sessionsPerBrowser`
 * runtimes each) are the pool's BrowserSet (browsers.ts).
 */
import { EventEmitter } from 'node:events';
import { BrowserSet, type SharedBrowser } from './browsers';
import { browserOptions, Runtime, type RuntimeOptions } from './runtime';
import type { PoolStats } from './schemas';
import type { KillReport, RuntimeKind, SessionRuntime } from './session-runtime';

export class NoCapacityError extends Error {
  constructor() {
    super('no capacity on this host');
    this.name = 'NoCapacityError';
  }
}

export class PoolClosedError extends Error {
  constructor() {
    super('the runtime pool is closed');
    this.name = 'PoolClosedError';
  }
}

export interface PoolOptions<R extends SessionRuntime = Runtime> {
  capacity: number;
  warm: number;
  runtime: RuntimeOptions;
  /**
   * After a session takes a warm runtime, wait this long before launching its replacement, so
   * the new browser's start does not compete for CPU with the session's game start. Default 1500.
   */
  refillDelayMs?: number;
  /** Log sink (level, message). */
  log?: (level: 'info' | 'warn' | 'error', msg: string) => void;
  /**
   * The kind of runtime the pool keeps warm (HOST_RUNTIME_KIND); default `page`. A session that
   * needs the other kind (a native title on a light host: its stream plays in a page) gets one
   * launched cold for it (acquire's `kind`).
   */
  kind?: RuntimeKind;
  /** Makes runtimes of a kind (the agent's light runtimes; tests may wrap); default a page Runtime. */
  createRuntime?: (opts: RuntimeOptions, browsers: BrowserSet, kind: RuntimeKind) => R;
}

interface Waiter<R> {
  resolve(rt: R): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000];

export class RuntimePool<R extends SessionRuntime = Runtime> extends EventEmitter {
  private readonly warmList: R[] = [];
  private readonly launching = new Map<R, Promise<unknown>>();
  private readonly busy = new Set<R>();
  private readonly killing = new Set<Promise<KillReport>>();
  private waiters: Waiter<R>[] = [];
  private closed = false;
  private consecutiveFailures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private delayTimer: NodeJS.Timeout | null = null;
  /** Launches started for a waiting session: they skip the prewarm (a cold start is waited for). */
  private coldLaunches = 0;
  private counts = { launches: 0, launchFailures: 0, kills: 0 };
  private lastLaunchMs: number | null = null;
  private readonly browserSet: BrowserSet;

  constructor(private readonly opts: PoolOptions<R>) {
    super();
    if (opts.capacity < 1) throw new RangeError('capacity must be >= 1');
    this.browserSet = new BrowserSet(() => browserOptions(this.opts.runtime));
  }

  /** The Chromiums the runtimes live in now. */
  browsers(): SharedBrowser[] {
    return this.browserSet.browsers();
  }

  /** The options every new runtime is launched with (the agent sets the prewarm plan at start). */
  get runtimeOptions(): RuntimeOptions {
    return this.opts.runtime;
  }

  get capacity(): number {
    return this.opts.capacity;
  }

  start(): void {
    this.refill();
  }

  stats(): PoolStats {
    return {
      capacity: this.opts.capacity,
      warmTarget: Math.min(this.opts.warm, this.opts.capacity),
      warm: this.warmList.length,
      busy: this.busy.size,
      launching: this.launching.size,
      waiting: this.waiters.length,
      ...this.counts,
      lastLaunchMs: this.lastLaunchMs,
    };
  }

  /** Every runtime the pool holds (warm, busy, launching). */
  runtimes(): R[] {
    return [...this.warmList, ...this.busy, ...this.launching.keys()];
  }

  /** Resolves when `n` runtimes (default: the warm target) are warm. */
  async whenWarm(n = Math.min(this.opts.warm, this.opts.capacity), timeoutMs = 60_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.warmList.length < n) {
      if (this.closed) throw new PoolClosedError();
      if (Date.now() > end) throw new Error(`pool: ${n} warm runtimes not ready after ${timeoutMs} ms (${JSON.stringify(this.stats())})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * A warm runtime for a session: at once when one is warm, else the next one that warms (a cold
   * start). Throws NoCapacityError when every slot is taken. A `kind` other than the pool's is
   * launched for this session now, cold (the warm runtimes are the pool's kind; the one it makes
   * may stand beside them for the session's life: capacity counts sessions).
   */
  acquire(timeoutMs: number, kind: RuntimeKind = this.kind): Promise<R> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (kind !== this.kind) return this.acquireOther(timeoutMs, kind);
    const rt = this.warmList.shift();
    if (rt) {
      this.busy.add(rt);
      const delay = this.opts.refillDelayMs ?? 1500;
      if (delay > 0) {
        this.delayTimer ??= setTimeout(() => {
          this.delayTimer = null;
          this.refill();
        }, delay);
      } else {
        this.refill();
      }
      return Promise.resolve(rt);
    }
    if (this.busy.size + this.waiters.length >= this.opts.capacity) return Promise.reject(new NoCapacityError());
    return new Promise<R>((resolve, reject) => {
      const waiter: Waiter<R> = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error(`no runtime became ready within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
      this.refill();
    });
  }

  /** The pool's kind of runtime (what it keeps warm). */
  get kind(): RuntimeKind {
    return this.opts.kind ?? 'page';
  }

  private make(kind: RuntimeKind): R {
    if (!this.opts.createRuntime && kind !== 'page') throw new Error(`this pool makes no ${kind} runtimes`);
    const rt = this.opts.createRuntime ? this.opts.createRuntime(this.opts.runtime, this.browserSet, kind) : (new Runtime(this.opts.runtime, this.browserSet) as unknown as R);
    rt.on('log', (level: 'info' | 'warn' | 'error', msg: string) => this.log(level, `${rt.id}: ${msg}`));
    return rt;
  }

  private async acquireOther(timeoutMs: number, kind: RuntimeKind): Promise<R> {
    if (this.busy.size + this.waiters.length >= this.opts.capacity) throw new NoCapacityError();
    const rt = this.make(kind);
    this.busy.add(rt);
    try {
      const t = setTimeout(() => void rt.kill(), timeoutMs);
      await rt.launch(false).finally(() => clearTimeout(t));
      this.counts.launches++;
      return rt;
    } catch (e) {
      this.counts.launchFailures++;
      this.busy.delete(rt);
      await rt.kill();
      throw e;
    }
  }

  /** Ends a runtime's life: kill it (all processes) and launch a fresh warm one in its place. */
  async release(rt: R): Promise<KillReport> {
    this.busy.delete(rt);
    const i = this.warmList.indexOf(rt);
    if (i >= 0) this.warmList.splice(i, 1);
    const p = rt.kill();
    this.killing.add(p);
    try {
      const report = await p;
      this.counts.kills++;
      if (report.leftover.length) this.log('error', `runtime ${rt.id}: ${report.leftover.length} processes survived SIGKILL`);
      return report;
    } finally {
      this.killing.delete(p);
      this.refill();
    }
  }

  private refill(): void {
    if (this.closed) return;
    // a waiting session cannot wait for the delay
    if (this.delayTimer && this.waiters.length === 0) return;
    if (this.delayTimer) {
      clearTimeout(this.delayTimer);
      this.delayTimer = null;
    }
    const cap = this.opts.capacity;
    const target = Math.min(cap - this.busy.size, Math.min(this.opts.warm, cap) + this.waiters.length);
    let need = target - this.warmList.length - this.launching.size;
    let total = this.busy.size + this.warmList.length + this.launching.size + this.killing.size;
    while (need > 0 && total < cap && !this.retryTimer) {
      this.launchOne();
      need--;
      total++;
    }
  }

  private launchOne(): void {
    const rt = this.make(this.kind);
    const cold = this.waiters.length > this.coldLaunches;
    if (cold) this.coldLaunches++;
    const p = rt
      .launch(!cold)
      .finally(() => {
        if (cold) this.coldLaunches--;
      })
      .then(() => {
        this.launching.delete(rt);
        this.counts.launches++;
        this.lastLaunchMs = rt.launchMs;
        this.consecutiveFailures = 0;
        if (this.closed) {
          // close() is waiting for this launch and kills everything in warmList after it
          this.warmList.push(rt);
          return;
        }
        rt.on('crash', (reason: string) => {
          // a warm runtime that dies is replaced; a busy one is the session's business
          if (rt.state === 'warm') {
            this.log('warn', `warm runtime ${rt.id} died (${reason}); replacing it`);
            void this.release(rt);
          }
        });
        const waiter = this.waiters.shift();
        if (waiter) {
          clearTimeout(waiter.timer);
          this.busy.add(rt);
          waiter.resolve(rt);
        } else {
          this.warmList.push(rt);
        }
        this.emit('warm', rt);
        this.refill();
      })
      .catch((e: unknown) => {
        this.launching.delete(rt);
        this.counts.launchFailures++;
        const wait = BACKOFF_MS[Math.min(this.consecutiveFailures, BACKOFF_MS.length - 1)];
        this.consecutiveFailures++;
        this.log('error', `runtime launch failed (${e instanceof Error ? e.message : String(e)}); retrying in ${wait} ms`);
        if (this.closed) return;
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = null;
          this.refill();
        }, wait);
      });
    this.launching.set(rt, p);
  }

  /** Stops refilling, rejects waiters and kills every runtime (warm, busy, launching). */
  async close(): Promise<KillReport[]> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.delayTimer) clearTimeout(this.delayTimer);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new PoolClosedError());
    }
    // warm and busy runtimes die now; a launch in flight is let finish (bounded by
    // launchTimeoutMs) and killed then: killing a half-launched browser could leave a process
    // that the launch starts a moment later
    const now = [...this.warmList.splice(0), ...this.busy];
    this.busy.clear();
    const first = Promise.all(now.map((rt) => rt.kill()));
    await Promise.allSettled([...this.launching.values()]);
    const reports = [...(await first), ...(await Promise.all(this.warmList.splice(0).map((rt) => rt.kill())))];
    await Promise.allSettled([...this.killing]);
    this.counts.kills += reports.length;
    // every browser is empty now and closed with its last runtime; any left (a launch that
    // failed half-way) goes too
    const left = await this.browserSet.closeAll();
    if (left.length && reports[0]) reports[0].leftover.push(...left);
    return reports;
  }

  /** Process exit path: SIGKILL every browser's tree synchronously. */
  killAllSync(): void {
    for (const rt of this.runtimes()) rt.killSync();
    this.browserSet.killAllSync();
  }

  private log(level: 'info' | 'warn' | 'error', msg: string): void {
    if (this.opts.log) this.opts.log(level, msg);
    else if (level !== 'info') console[level === 'warn' ? 'warn' : 'error'](`[host pool] ${msg}`);
  }
}
