/**
 * The default fleet: the api's PostgreSQL host registry (docs/sessions.md §4.1). It is the
 * Registry client as before — register once, heartbeat with the sessions this host runs, report
 * Shutdown at once on drain so the api places nothing more here — behind the Fleet interface.
 */
import type { Registry } from '../registry';
import type { Fleet } from './types';

export class ApiFleet implements Fleet {
  readonly kind = 'api';

  constructor(readonly registry: Registry) {}

  start(): void {
    this.registry.start();
  }

  /** Tells the api now (not after the sessions ended): it must stop placing sessions here. */
  async shutdown(): Promise<void> {
    await this.registry.shutdown();
  }

  stop(): void {
    this.registry.stop();
  }
}
