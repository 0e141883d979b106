/**
 * The api's Prometheus metrics and `GET /metrics` (server/shared/metrics.ts: process metrics,
 * the request histogram, the access rule). Its own families, all `yumecast_api_*`:
 * - sessions{state}: live sessions by state, counted in PostgreSQL at each scrape (db_up says
 *   whether that query answered);
 * - session_starts_total{outcome}: the players' start calls, `accepted` or the error code;
 * - session_start_seconds: from the start call to the host's `ready` report (queue included);
 * - sessions_ended_total{reason}: sessions that ended (closed or failed), by reason;
 * - host_heartbeats_total{outcome}, host_reports_total{state, outcome}: what hosts sent;
 * - db_pool_connections{state}, db_pool_max: the pg pool;
 * - signal_connections, signal_frames_relayed_total, signal_frames_published_total,
 *   signal_frames_dropped_total, signal_connections_rejected_total: the signalling relay.
 * Outcomes come from the answers (hooks on the routes' patterns); endings and start latency from
 * the session service's events (a host's repeated `ready` report is not counted again).
 * docs/operations.md explains each one and its alert.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, reasonLabel, Registry, registerMetricsEndpoint, scrapedCounter, scrapedGauge } from '../../shared/metrics';
import { ApiError } from '../errors';
import { liveSessionCounts } from '../services/health';
import type { RelayStats } from '../services/signalRelay';

export interface ApiMetricsOptions {
  /** METRICS_TOKEN: with it, /metrics needs `Authorization: Bearer <token>`; without, loopback only. */
  token: string | undefined;
  /** DATABASE_POOL_MAX */
  poolMax: number;
}

const START_ROUTE = '/v1/game/:gameId/start';
const HEARTBEAT_ROUTE = '/internal/hosts/:hostId/heartbeat';
const REPORT_ROUTE = '/internal/sessions/:sessionId/state';
const REPORT_STATES = new Set(['starting', 'ready', 'playing', 'closed', 'failed']);

async function apiMetricsPlugin(app: FastifyInstance, options: ApiMetricsOptions): Promise<void> {
  const registry = new Registry();
  const registers = [registry];
  registerMetricsEndpoint(app, { prefix: 'yumecast_api', registry, token: options.token });

  const dbUp = new Gauge({ name: 'yumecast_api_db_up', help: '1 when PostgreSQL answered the last scrape’s query, else 0.', registers });
  scrapedGauge({
    name: 'yumecast_api_sessions',
    help: 'Live game sessions by state (queued, allocating, starting, ready, playing, closing), from PostgreSQL at scrape.',
    label: 'state',
    registers,
    async read() {
      try {
        const counts = await liveSessionCounts(app.db);
        dbUp.set(1);
        return counts;
      } catch {
        // keep the last values; db_up says they are stale
        dbUp.set(0);
        return null;
      }
    },
  });
  const starts = new Counter({
    name: 'yumecast_api_session_starts_total',
    help: 'Start calls (GET /v1/game/:gameId/start) by outcome: accepted, or the error code answered.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const startSeconds = new Histogram({
    name: 'yumecast_api_session_start_seconds',
    help: 'Seconds from a start call to its host reporting the session ready (queue and allocation included).',
    buckets: [0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60],
    registers,
  });
  const ended = new Counter({
    name: 'yumecast_api_sessions_ended_total',
    help: 'Sessions that ended (closed or failed), by reason (user, idle, host_lost, start_timeout, runtime_crashed, …).',
    labelNames: ['reason'] as const,
    registers,
  });
  // told at `closing` and again at the end: only the final state counts, so a session counts once
  app.sessions.onSessionEnded((_sessionId, reason, state) => {
    if (state === 'closed' || state === 'failed') ended.inc({ reason: reasonLabel(reason) });
  });
  app.sessions.onSessionReady((_sessionId, seconds) => startSeconds.observe(seconds));
  const heartbeats = new Counter({
    name: 'yumecast_api_host_heartbeats_total',
    help: 'Heartbeats received from hosts, by outcome (ok, or the error code answered).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const reports = new Counter({
    name: 'yumecast_api_host_reports_total',
    help: 'Session state reports received from hosts, by reported state and outcome.',
    labelNames: ['state', 'outcome'] as const,
    registers,
  });
  scrapedGauge({
    name: 'yumecast_api_db_pool_connections',
    help: 'The pg pool: connections open (total), idle, and requests waiting for one (waiting).',
    label: 'state',
    registers,
    read: () => ({ total: app.db.totalCount, idle: app.db.idleCount, waiting: app.db.waitingCount }),
  });
  new Gauge({ name: 'yumecast_api_db_pool_max', help: 'The pg pool’s size (DATABASE_POOL_MAX).', registers }).set(options.poolMax);
  scrapedGauge({
    name: 'yumecast_api_signal_connections',
    help: 'Signalling WebSockets (hosts and players) connected to this process.',
    registers,
    read: () => app.signalRelay.stats().connections,
  });
  const relay = (name: string, help: string, key: Exclude<keyof RelayStats, 'connections'>) =>
    scrapedCounter({ name, help, registers, read: () => app.signalRelay.stats()[key] });
  relay('yumecast_api_signal_frames_relayed_total', 'Signalling frames relayed between a host and its player connected to this process.', 'relayed');
  relay('yumecast_api_signal_frames_published_total', 'Signalling frames whose other peer is not connected here, handed to the signal bus.', 'published');
  relay('yumecast_api_signal_frames_dropped_total', 'Signalling frames dropped (not allowed, malformed or over the rate).', 'dropped');
  relay('yumecast_api_signal_connections_rejected_total', 'Signalling connections refused (bad token, session not live).', 'rejected');
  relay('yumecast_api_signal_frames_relayed_in_total', 'Signalling frames another api replica received and this one delivered (signal bus).', 'relayedIn');
  scrapedCounter({
    name: 'yumecast_api_signal_bus_lost_total',
    help: 'Signal bus events not published (no connection) or not put together (a chunk missing).',
    registers,
    read: () => app.signalRelay.busStats()?.lost ?? 0,
  });

  // outcomes from the answers: the error a route threw (onError) or its status
  const errors = new WeakMap<FastifyRequest, Error>();
  const outcome = (request: FastifyRequest, reply: FastifyReply): string => {
    if (reply.statusCode < 400) return 'ok';
    const error = errors.get(request);
    return error instanceof ApiError ? error.code : `http_${reply.statusCode}`;
  };
  app.addHook('onError', async (request, _reply, error) => {
    errors.set(request, error);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === START_ROUTE) {
      const result = outcome(request, reply);
      starts.inc({ outcome: result === 'ok' ? 'accepted' : result });
    } else if (route === HEARTBEAT_ROUTE) {
      heartbeats.inc({ outcome: outcome(request, reply) });
    } else if (route === REPORT_ROUTE) {
      const state = (request.body as { state?: unknown } | undefined)?.state;
      const label = typeof state === 'string' && REPORT_STATES.has(state) ? state : 'invalid';
      reports.inc({ state: label, outcome: outcome(request, reply) });
    }
  });
}

export default fp(apiMetricsPlugin, { name: 'yumecast-metrics', fastify: '5.x', dependencies: ['yumecast-db', 'yumecast-sessions'] });
