/**
 * The placement the config asks for (docs/host.md "Fleets"): the Agones allocator when
 * AGONES_ALLOCATOR_URL is set, else the built-in PostgreSQL host registry (the local default).
 */
import type { SessionContext } from '../context';
import { AgonesPlacement } from './agones';
import { RegistryPlacement } from './registry';
import type { Placement } from './types';

export type { Placement } from './types';

export function createPlacement(ctx: SessionContext): Placement {
  return ctx.config.agonesAllocator ? new AgonesPlacement(ctx, ctx.config.agonesAllocator) : new RegistryPlacement(ctx);
}
