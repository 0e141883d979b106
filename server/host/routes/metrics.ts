/**
 * GET /metrics on the game host (Prometheus text) and the request histogram, with the shared
 * access rule (server/shared/metrics.ts: METRICS_TOKEN bearer, else loopback peers only). It
 * builds the agent's HostMetrics (../metrics.ts) over the pool, sessions and registry it is given,
 * hands it to the session manager as its sink, and follows the pool's runtimes (launch time,
 * crashes). fastify-plugin: the request hook covers every route of the agent.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerMetricsEndpoint } from '../../shared/metrics';
import { HostMetrics } from '../metrics';
import type { Runtime } from '../runtime';
import type { HostRouteDeps } from './deps';

export interface HostMetricsOptions extends HostRouteDeps {
  /** METRICS_TOKEN: with it, /metrics needs `Authorization: Bearer <token>`; without, loopback only. */
  token: string | undefined;
}

async function hostMetricsPlugin(app: FastifyInstance, { pool, sessions, agentState, registry, token }: HostMetricsOptions): Promise<void> {
  const metrics = new HostMetrics({
    state: agentState,
    poolStats: () => pool.stats(),
    liveSessions: () => sessions.list(),
    counters: async (id) => {
      const rt = sessions.get(id)?.runtime;
      return rt && rt.state === 'busy' ? rt.counters() : null;
    },
    registry: () => registry(),
  });
  sessions.metrics = metrics;
  pool.on('warm', (rt: Runtime) => {
    metrics.runtimeLaunched(rt.launchMs);
    rt.once('crash', () => metrics.runtimeCrashed(rt.state === 'busy' ? 'session' : 'warm'));
  });
  registerMetricsEndpoint(app, { prefix: 'yumecast_host', registry: metrics.registry, token });
}

export default fp(hostMetricsPlugin, { name: 'yumecast-host-metrics', fastify: '5.x' });
