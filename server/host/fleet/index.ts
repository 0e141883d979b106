/**
 * Picks the fleet(s) of a host from its config (HOST_FLEET, docs/host.md "Fleets"): the api's
 * registry whenever the host registers (HOST_REGISTER, the default), plus Agones when
 * HOST_FLEET=agones. Under Agones the api registry stays on: the api keeps the record of sessions,
 * their reports and the host's liveness, and its allocator path finds the host by the GameServer's
 * name (HOST_ID). The SDK talks to the sidecar on localhost:AGONES_SDK_GRPC_PORT.
 */
import type { ApiClient } from '../api-client';
import type { HostConfig } from '../config';
import { Registry, type RegistrySource } from '../registry';
import { AgonesFleet, type AgonesSdkClient } from './agones';
import { ApiFleet } from './api';
import { FleetGroup, type Fleet, type FleetLog } from './types';

export type { Fleet } from './types';

export interface FleetDeps {
  /** The api client, when the host registers (null with HOST_REGISTER=0). */
  api: ApiClient | null;
  /** What the api registry reports (url, capacity, warm, sessions, reconcile). */
  source: RegistrySource;
  /** Resolves when the warm pool is up. */
  whenWarm(): Promise<void>;
  /** Agones asked the host to go away: drain it. */
  onShutdown(): void;
  log: FleetLog;
}

/**
 * The SDK on our port (the package reads AGONES_SDK_GRPC_PORT from process.env itself otherwise),
 * loaded only under Agones: the package and its gRPC library take ~0.2 s to load.
 */
async function agonesSdk(port: number): Promise<AgonesSdkClient> {
  const { default: AgonesSDK } = await import('@google-cloud/agones-sdk');
  class PortedSdk extends AgonesSDK {
    override get port(): string {
      return String(port);
    }
  }
  return new PortedSdk() as unknown as AgonesSdkClient;
}

export function createFleet(config: HostConfig, deps: FleetDeps): Fleet | null {
  const members: Fleet[] = [];
  const registry = deps.api ? new Registry(deps.api, deps.source, config.timings.heartbeatMs, deps.log) : null;
  if (registry) members.push(new ApiFleet(registry));
  if (config.fleet === 'agones') {
    members.push(
      new AgonesFleet(() => agonesSdk(config.agones.sdkPort), {
        hostId: config.hostId,
        capacity: config.capacity,
        healthMs: config.agones.healthMs,
        activeSessions: () => deps.source.sessionIds().length,
        whenReady: async (stopped) => {
          await deps.whenWarm();
          // the api must know this host before the allocator may hand it out
          while (registry && !registry.registered && !stopped()) await new Promise((r) => setTimeout(r, 100).unref());
        },
        onShutdown: deps.onShutdown,
        log: deps.log,
      }),
    );
  }
  if (members.length === 0) return null;
  return members.length === 1 ? members[0] : new FleetGroup(members);
}
