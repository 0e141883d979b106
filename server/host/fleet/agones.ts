/**
 * The Agones fleet (docs/host.md "Fleets"): the host as an Agones GameServer, through the SDK's
 * gRPC sidecar (@google-cloud/agones-sdk). It connects, sets the `sessions` counter's capacity to
 * the host's capacity, calls Ready() once the warm pool is up (and, with the api registry too,
 * once the api knows this host), pings Health() every HOST_AGONES_HEALTH_MS, and keeps the counter's
 * count equal to the sessions running here: Allocate() (and the `sessions` label) when the first
 * one starts, Ready() again when the last one ends so the FleetAutoscaler may scale an empty host
 * down. On drain it calls Shutdown() once the sessions have ended; a GameServer that Agones moves
 * to Shutdown (scale-down, deletion) drains the agent. The allocator increments the counter
 * itself when it places a session (server/api/services/sessions/placement/agones.ts); this host
 * sets the absolute count whenever its own count changes and every RESYNC_MS, so an allocation
 * whose start never arrived does not hold a slot for ever.
 */
import type { FleetLog, Fleet } from './types';
import { SESSIONS_COUNTER } from '../../shared/host-contract';

/** The GameServer counter that holds this host's sessions (the Fleet's spec declares it). */
export { SESSIONS_COUNTER };
/** How often the session count is compared with the last one sent. */
const SYNC_MS = 250;
/** The absolute count is sent again this often even when unchanged (undoes stray increments). */
const RESYNC_MS = 30_000;

/** What this fleet uses of the SDK (AgonesSDK of @google-cloud/agones-sdk, with its `beta` client). */
export interface AgonesSdkClient {
  connect(): Promise<void>;
  ready(): Promise<unknown>;
  allocate(): Promise<unknown>;
  shutdown(): Promise<unknown>;
  health(errorCallback: (error: unknown) => void): void;
  getGameServer(): Promise<{ objectMeta?: { name?: string }; status?: { state?: string } }>;
  watchGameServer(callback: (gs: { objectMeta?: { deletionTimestamp?: number }; status?: { state?: string } }) => void, errorCallback: (error: unknown) => void): void;
  setLabel(key: string, value: string): Promise<unknown>;
  close(): void;
  beta: { setCounterCount(key: string, n: number): Promise<void>; setCounterCapacity(key: string, n: number): Promise<void> };
}

export interface AgonesFleetOptions {
  hostId: string;
  capacity: number;
  healthMs: number;
  /** Sessions running now. */
  activeSessions(): number;
  /** Resolves when the host may take sessions (warm pool up, registered with the api); `stopped` ends the wait. */
  whenReady(stopped: () => boolean): Promise<void>;
  /** Agones moved the GameServer to Shutdown: drain the agent. */
  onShutdown(): void;
  log: FleetLog;
}

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class AgonesFleet implements Fleet {
  readonly kind = 'agones';
  readonly registry = null;
  /** What the SDK was last told (tests and /metrics may read it). */
  readonly sent = { ready: 0, allocate: 0, health: 0, count: null as number | null, shutdown: false };
  private stopped = false;
  private draining = false;
  private shutdownSeen = false;
  private healthTimer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private lastSync = 0;
  private syncing: Promise<void> | null = null;
  private lastWarn = 0;

  private sdk: AgonesSdkClient | null = null;

  constructor(
    private readonly loadSdk: () => Promise<AgonesSdkClient>,
    private readonly o: AgonesFleetOptions,
  ) {}

  start(): void {
    void this.run().catch((e) => this.o.log('error', `agones: ${msg(e)}`));
  }

  private async run(): Promise<void> {
    const sdk = await this.loadSdk();
    if (this.stopped) return;
    this.sdk = sdk;
    // the sidecar may start after us: connect waits up to 30 s per attempt
    for (;;) {
      if (this.stopped) return;
      try {
        await sdk.connect();
        break;
      } catch (e) {
        this.warnThrottled(`agones: the SDK sidecar is not reachable (${msg(e)}); retrying`);
        // a connect that fails at once (no sidecar yet) must not spin
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    this.healthTimer = setInterval(() => this.ping(), this.o.healthMs);
    this.healthTimer.unref?.();
    this.ping();
    sdk.watchGameServer(
      (gs) => {
        if ((gs.status?.state === 'Shutdown' || gs.objectMeta?.deletionTimestamp) && !this.shutdownSeen && !this.stopped) {
          this.shutdownSeen = true;
          this.o.log('warn', 'agones: the GameServer is shutting down: draining');
          this.o.onShutdown();
        }
      },
      (e) => this.warnThrottled(`agones: watching the GameServer failed: ${msg(e)}`),
    );
    const gs = await sdk.getGameServer();
    const name = gs.objectMeta?.name;
    if (name && name !== this.o.hostId) {
      this.o.log('warn', `agones: HOST_ID ${this.o.hostId} is not the GameServer's name ${name}: the api's allocator path will not find this host (set HOST_ID from the pod name)`);
    }
    await sdk.beta.setCounterCapacity(SESSIONS_COUNTER, this.o.capacity);
    await this.syncCount(true);
    await this.o.whenReady(() => this.stopped || this.draining);
    if (this.stopped || this.draining) return;
    await sdk.ready();
    this.sent.ready++;
    this.o.log('info', `agones: GameServer ${name ?? '?'} Ready (counter ${SESSIONS_COUNTER}: capacity ${this.o.capacity})`);
    this.syncTimer = setInterval(() => void this.syncCount(false), SYNC_MS);
    this.syncTimer.unref?.();
  }

  private ping(): void {
    if (this.stopped || !this.sdk) return;
    this.sdk.health((e) => this.warnThrottled(`agones: health ping failed: ${msg(e)}`));
    this.sent.health++;
  }

  /** Sends the session count when it changed (or `force`, or RESYNC_MS passed); Allocate/Ready on the edges. */
  private async syncCount(force: boolean): Promise<void> {
    if (this.syncing) {
      // one update at a time; a forced one runs after the one under way
      if (!force) return;
      await this.syncing;
      return this.syncCount(force);
    }
    const sdk = this.sdk;
    if (this.stopped || !sdk) return;
    const n = this.o.activeSessions();
    const prev = this.sent.count;
    if (!force && n === prev && Date.now() - this.lastSync < RESYNC_MS) return;
    let done = (): void => undefined;
    this.syncing = new Promise<void>((r) => (done = r));
    try {
      await sdk.beta.setCounterCount(SESSIONS_COUNTER, n);
      this.sent.count = n;
      this.lastSync = Date.now();
      if (n === prev) return;
      if (n > 0 && (prev ?? 0) === 0) {
        // a session placed without the allocator (or before it marked us) still holds the GameServer
        await sdk.allocate();
        this.sent.allocate++;
      } else if (n === 0 && (prev ?? 0) > 0 && !this.draining && this.sent.ready > 0) {
        // empty again: back to the Ready pool, where the FleetAutoscaler may remove it
        await sdk.ready();
        this.sent.ready++;
      }
      await sdk.setLabel(SESSIONS_COUNTER, String(n));
    } catch (e) {
      this.warnThrottled(`agones: counter update failed: ${msg(e)}`);
    } finally {
      this.syncing = null;
      done();
    }
  }

  async shutdown(sessionsEnded: Promise<unknown>): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    await sessionsEnded;
    if (this.syncTimer) clearInterval(this.syncTimer);
    if (this.stopped) return; // stop() said Shutdown already
    await this.syncCount(true);
    if (this.sent.shutdown || !this.sdk) return;
    try {
      // Agones deletes the pod after this: only once every session has saved and said bye
      await this.sdk.shutdown();
      this.sent.shutdown = true;
    } catch (e) {
      this.o.log('warn', `agones: Shutdown failed: ${msg(e)}`);
    }
  }

  /** Stops pinging; a drain whose sessions outlived the agent's grace still says Shutdown first. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.healthTimer) clearInterval(this.healthTimer);
    if (this.syncTimer) clearInterval(this.syncTimer);
    const sdk = this.sdk;
    if (!sdk) return; // not loaded yet: run() stops once it is
    const close = () => {
      try {
        sdk.close();
      } catch {
        // already closed
      }
    };
    if (this.draining && !this.sent.shutdown) {
      this.sent.shutdown = true;
      void sdk.shutdown().catch((e) => this.o.log('warn', `agones: Shutdown failed: ${msg(e)}`)).finally(close);
    } else close();
  }

  private warnThrottled(m: string): void {
    if (Date.now() - this.lastWarn < 10_000) return;
    this.lastWarn = Date.now();
    this.o.log('warn', m);
  }
}
