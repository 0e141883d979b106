/**
 * Where a queued session goes (docs/sessions.md 1 "Allocation order", docs/host.md "Fleets"):
 * one interface, two answers. The built-in PostgreSQL host registry (./registry.ts, the default)
 * picks a registered host with a free slot itself; the Agones allocator (./agones.ts, when
 * AGONES_ALLOCATOR_URL is set) asks Agones for a GameServer. Either way the head of the queue moves
 * to `allocating` on a host row, and allocation.ts then calls that host's POST /sessions.
 */
import type { SessionRow } from '../../sessionStore';
import type { HostRow } from '../hostStore';

export interface Placement {
  /** `registry` or `agones`, for logs. */
  readonly kind: string;
  /**
   * Moves the head of the queue to `allocating` on a host and answers both (the host's `url` is
   * where to call it), or null when nothing is queued or no host has room now.
   */
  next(): Promise<{ session: SessionRow; host: HostRow } | null>;
}
