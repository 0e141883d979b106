/**
 * The fleet a host belongs to (docs/host.md "Fleets"): whatever learns that this host exists, is
 * alive, how many sessions it holds and that it is going away. Two implementations: the api's
 * PostgreSQL registry (./api.ts, the default: register + heartbeat) and Agones (./agones.ts: the
 * SDK's Ready, Health, Allocated, the `sessions` counter and Shutdown). ./index.ts picks them from
 * HOST_FLEET; the agent only calls this interface.
 */
import type { Registry } from '../registry';

export type FleetLog = (level: 'info' | 'warn' | 'error', msg: string) => void;

export interface Fleet {
  /** Which fleet(s) this is, for logs and /health (e.g. `api`, `api+agones`). */
  readonly kind: string;
  /** The api registration, when this host registers with the api (the routes read its state). */
  readonly registry: Registry | null;
  /** Joins the fleet in the background: the agent listens and its pool is started. */
  start(): void;
  /**
   * The host is draining: no new sessions come. `sessionsEnded` settles once every session has
   * ended (saved, said bye); a fleet that must not be told before then (Agones deletes the pod on
   * Shutdown) waits for it.
   */
  shutdown(sessionsEnded: Promise<unknown>): Promise<void>;
  /** Stops every timer and stream (after shutdown, or in tests). */
  stop(): void;
}

/** Joins several fleets (the api registry and Agones) as one. */
export class FleetGroup implements Fleet {
  readonly kind: string;
  readonly registry: Registry | null;

  constructor(private readonly members: Fleet[]) {
    this.kind = members.map((m) => m.kind).join('+');
    this.registry = members.find((m) => m.registry)?.registry ?? null;
  }

  start(): void {
    for (const m of this.members) m.start();
  }

  async shutdown(sessionsEnded: Promise<unknown>): Promise<void> {
    await Promise.all(this.members.map((m) => m.shutdown(sessionsEnded)));
  }

  stop(): void {
    for (const m of this.members) m.stop();
  }
}
