/**
 * Registration and heartbeats with the api (docs/sessions.md §4.1): register once at start
 * (retrying until the api answers), then heartbeat every heartbeatIntervalMs with the sessions
 * this host runs; a 404 means the api forgot us (fresh database): register again. The answer's
 * `sessions` list is reconciled: runtimes the api no longer counts as live are stopped.
 */
import { ApiCallError, type ApiClient } from './api-client';

export interface RegistrySource {
  url: string;
  capacity: number;
  warm(): number;
  sessionIds(): string[];
  reconcile(apiLive: string[]): void;
}

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

export class Registry {
  registered = false;
  /** The host state the api last answered (Ready, Allocated, Shutdown). */
  apiState: string | null = null;
  heartbeats = 0;
  heartbeatFailures = 0;
  lastHeartbeatAt: number | null = null;
  private intervalMs: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastWarn = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly src: RegistrySource,
    heartbeatMs: number,
    private readonly log: Log,
  ) {
    this.intervalMs = heartbeatMs;
  }

  start(): void {
    this.stopped = false;
    void this.loop();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.loop(), ms);
    this.timer.unref?.();
  }

  private async loop(): Promise<void> {
    if (this.stopped) return;
    if (!this.registered) {
      try {
        const r = await this.api.register({ url: this.src.url, capacity: this.src.capacity, warm: this.src.warm() });
        this.registered = true;
        this.apiState = r.state ?? 'Ready';
        if (typeof r.heartbeatIntervalMs === 'number' && r.heartbeatIntervalMs >= 50) this.intervalMs = Math.min(this.intervalMs, r.heartbeatIntervalMs);
        this.log('info', `registered with the api as ${this.api.hostId} (${this.apiState}; heartbeat every ${this.intervalMs} ms)`);
      } catch (e) {
        this.warnThrottled(`registration failed: ${e instanceof Error ? e.message : String(e)}; retrying`);
        this.schedule(Math.min(5000, Math.max(500, this.intervalMs)));
        return;
      }
    }
    await this.beat();
    this.schedule(this.intervalMs);
  }

  /** One heartbeat now. */
  async beat(): Promise<void> {
    try {
      const sessionIds = this.src.sessionIds();
      const r = await this.api.heartbeat({ activeSessions: sessionIds.length, warm: this.src.warm(), sessionIds }, Math.max(2000, this.intervalMs * 2));
      this.heartbeats++;
      this.lastHeartbeatAt = Date.now();
      this.apiState = r.state ?? this.apiState;
      if (Array.isArray(r.sessions) && !this.stopped) this.src.reconcile(r.sessions.filter((x): x is string => typeof x === 'string'));
    } catch (e) {
      this.heartbeatFailures++;
      if (e instanceof ApiCallError && e.status === 404) {
        this.registered = false;
        this.log('warn', 'the api does not know this host any more: registering again');
        return;
      }
      this.warnThrottled(`heartbeat failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private warnThrottled(m: string): void {
    if (Date.now() - this.lastWarn < 10_000) return;
    this.lastWarn = Date.now();
    this.log('warn', m);
  }

  /** Stops heartbeating and tells the api this host is going away. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (!this.registered) return;
    try {
      await this.api.shutdown();
      this.apiState = 'Shutdown';
    } catch (e) {
      this.log('warn', `shutdown report failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
