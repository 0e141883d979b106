/**
 * The game host's Prometheus families (`yumecast_host_*`), on the agent's own Registry; the
 * shared part (process metrics, the request histogram, GET /metrics and its access rule) is
 * server/shared/metrics.ts, wired by routes/metrics.ts. Gauges are read at scrape from the pool,
 * the sessions and the registry; what happens once (a session ready, a session ended, a runtime
 * warmed or crashed) is told through the sinks below (sessions.ts calls `SessionMetricsSink`).
 *
 * The player-message counters are the bridge's per-session counters (docs/host.md "The
 * bridge"), summed over the host's life: sessions that ended add their last counters, live ones
 * are read from their runtime at scrape. docs/operations.md explains each metric and its alert.
 */
import { Counter, Histogram, reasonLabel, Registry, scrapedCounter, scrapedGauge } from '../shared/metrics';
import type { AgentState, BridgeCounters, HostSessionState, PoolStats } from './schemas';

/** What sessions.ts tells the metrics (it calls these; they never throw). */
export interface SessionMetricsSink {
  sessionReady(info: { startMs: number; fromWarm: boolean | null }): void;
  sessionEnded(info: { sessionId: string; state: HostSessionState; reason: string; reachedReady: boolean; fromWarm: boolean | null; counters: BridgeCounters | null }): void;
}

/** Where the metrics read the agent at scrape. */
export interface HostMetricsSource {
  state(): AgentState;
  poolStats(): PoolStats;
  liveSessions(): { sessionId: string; state: HostSessionState }[];
  /** A live session's bridge counters now (null when its runtime cannot answer). */
  counters(sessionId: string): Promise<BridgeCounters | null>;
  registry(): { registered: boolean; heartbeats: number; heartbeatFailures: number } | null;
}

/** Bridge counters summed into `yumecast_host_relay_messages_total{kind}`. */
const RELAY_KINDS = {
  received: 'received',
  malformed: 'malformed',
  inputs: 'inputs',
  inputsRefused: 'inputs_refused',
  pings: 'pings',
  screenshots: 'screenshots',
  qualityChanges: 'quality_changes',
  notices: 'notices',
  idleWarnings: 'idle_warnings',
} as const;
type CountKey = keyof typeof RELAY_KINDS | 'rateLimited' | 'connections' | 'signalOpens';
const COUNT_KEYS = [...Object.keys(RELAY_KINDS), 'rateLimited', 'connections', 'signalOpens'] as CountKey[];
type Counts = Record<CountKey, number>;

const zero = (): Counts => Object.fromEntries(COUNT_KEYS.map((key) => [key, 0])) as Counts;
const LIVE_STATES: HostSessionState[] = ['starting', 'ready', 'playing', 'closing'];
const AGENT_STATES: AgentState[] = ['starting', 'running', 'shutting_down', 'stopped'];
const COUNTERS_TIMEOUT_MS = 1000;

function source(fromWarm: boolean | null): string {
  return fromWarm === null ? 'unknown' : fromWarm ? 'warm' : 'cold';
}

export class HostMetrics implements SessionMetricsSink {
  readonly registry = new Registry();
  /** Counters of sessions that ended, summed. */
  private readonly endedTotals = zero();
  /** The last counters read from each live session. */
  private readonly lastSeen = new Map<string, Counts>();
  /** Recently ended ids: a scrape that was reading one when it ended must not count it again. */
  private readonly endedIds = new Set<string>();
  private readonly starts: Counter<'outcome' | 'source'>;
  private readonly startSeconds: Histogram<'source'>;
  private readonly ended: Counter<'state' | 'reason'>;
  private readonly crashes: Counter<'phase'>;
  private readonly launchSeconds: Histogram;

  constructor(private readonly src: HostMetricsSource) {
    const registers = [this.registry];
    scrapedGauge({
      name: 'yumecast_host_state',
      help: 'The agent’s state: 1 for the current one (starting, running, shutting_down, stopped).',
      label: 'state',
      registers,
      read: () => {
        const now = src.state();
        return Object.fromEntries(AGENT_STATES.map((state) => [state, state === now ? 1 : 0]));
      },
    });
    scrapedGauge({
      name: 'yumecast_host_sessions',
      help: 'Live sessions on this host by state (starting, ready, playing, closing).',
      label: 'state',
      registers,
      read: () => {
        const counts: Record<string, number> = Object.fromEntries(LIVE_STATES.map((state) => [state, 0]));
        for (const s of src.liveSessions()) counts[s.state] = (counts[s.state] ?? 0) + 1;
        return counts;
      },
    });
    this.starts = new Counter({
      name: 'yumecast_host_session_starts_total',
      help: 'Session starts by outcome (ready, failed, cancelled before ready) and runtime source (warm, cold).',
      labelNames: ['outcome', 'source'] as const,
      registers,
    });
    this.startSeconds = new Histogram({
      name: 'yumecast_host_session_start_seconds',
      help: 'Seconds from the api’s start request to the session being ready (game started and published), by source.',
      labelNames: ['source'] as const,
      buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 20],
      registers,
    });
    this.ended = new Counter({
      name: 'yumecast_host_sessions_ended_total',
      help: 'Sessions that ended on this host, by final state (closed, failed) and reason.',
      labelNames: ['state', 'reason'] as const,
      registers,
    });
    scrapedGauge({
      name: 'yumecast_host_pool_runtimes',
      help: 'Runtimes (one Chromium each) by state: warm (ready for a session), busy (serving one), launching.',
      label: 'state',
      registers,
      read: () => {
        const { warm, busy, launching } = src.poolStats();
        return { warm, busy, launching };
      },
    });
    const poolGauge = (name: string, help: string, key: 'capacity' | 'warmTarget' | 'waiting') =>
      scrapedGauge({ name, help, registers, read: () => src.poolStats()[key] });
    poolGauge('yumecast_host_pool_capacity', 'Most runtimes at once (sessions + warm), HOST_CAPACITY.', 'capacity');
    poolGauge('yumecast_host_pool_warm_target', 'Runtimes the pool keeps warm, HOST_WARM_POOL (capped by capacity).', 'warmTarget');
    poolGauge('yumecast_host_pool_waiting', 'Sessions waiting for a runtime (cold starts under way).', 'waiting');
    scrapedCounter({
      name: 'yumecast_host_runtime_launches_total',
      help: 'Runtime launches by outcome (ok, failed).',
      label: 'outcome',
      registers,
      read: () => {
        const stats = src.poolStats();
        return { ok: stats.launches, failed: stats.launchFailures };
      },
    });
    this.launchSeconds = new Histogram({
      name: 'yumecast_host_runtime_launch_seconds',
      help: 'Seconds to launch a runtime (Chromium, runtime page, bridge, prewarm).',
      buckets: [0.5, 1, 2, 3, 5, 8, 13, 20, 30],
      registers,
    });
    scrapedCounter({
      name: 'yumecast_host_runtime_kills_total',
      help: 'Runtimes killed (after their session, or a warm one that died).',
      registers,
      read: () => src.poolStats().kills,
    });
    this.crashes = new Counter({
      name: 'yumecast_host_runtime_crashes_total',
      help: 'Runtimes whose browser or page died on their own, by phase (warm, session).',
      labelNames: ['phase'] as const,
      registers,
    });
    // the player-message counters: one reading of the live sessions per scrape, shared by the
    // families below (prom-client collects every family at once)
    let reading: Promise<Counts> | null = null;
    const readTotals = (): Promise<Counts> => {
      reading ??= this.totals().finally(() => (reading = null));
      return reading;
    };
    scrapedCounter({
      name: 'yumecast_host_relay_messages_total',
      help: 'Data-channel messages from players by kind: received, malformed (dropped), inputs (applied), inputs_refused, pings, screenshots, quality_changes; notices and idle_warnings sent.',
      label: 'kind',
      registers,
      read: async () => {
        const sums = await readTotals();
        return Object.fromEntries(Object.entries(RELAY_KINDS).map(([key, kind]) => [kind, sums[key as CountKey]]));
      },
    });
    const totalCounter = (name: string, help: string, key: CountKey) =>
      scrapedCounter({ name, help, registers, read: async () => (await readTotals())[key] });
    totalCounter('yumecast_host_input_rate_limited_total', 'Player messages dropped by the input rate limiter (HOST_RATE_PER_S / HOST_RATE_BURST).', 'rateLimited');
    totalCounter('yumecast_host_player_connections_total', 'Player peer connections (first joins and reconnects).', 'connections');
    totalCounter('yumecast_host_signal_opens_total', 'Signalling WebSocket opens by runtimes (first opens and reconnects after an api restart).', 'signalOpens');
    scrapedGauge({
      name: 'yumecast_host_registered',
      help: '1 while the agent is registered with the api.',
      registers,
      read: () => (src.registry()?.registered ? 1 : 0),
    });
    scrapedCounter({
      name: 'yumecast_host_heartbeats_total',
      help: 'Heartbeats sent to the api by outcome (ok, failed).',
      label: 'outcome',
      registers,
      read: () => {
        const reg = src.registry();
        return { ok: reg?.heartbeats ?? 0, failed: reg?.heartbeatFailures ?? 0 };
      },
    });
  }

  sessionReady(info: { startMs: number; fromWarm: boolean | null }): void {
    this.starts.inc({ outcome: 'ready', source: source(info.fromWarm) });
    this.startSeconds.observe({ source: source(info.fromWarm) }, info.startMs / 1000);
  }

  sessionEnded(info: Parameters<SessionMetricsSink['sessionEnded']>[0]): void {
    if (!info.reachedReady) this.starts.inc({ outcome: info.state === 'failed' ? 'failed' : 'cancelled', source: source(info.fromWarm) });
    this.ended.inc({ state: info.state, reason: reasonLabel(info.reason) });
    const last = this.lastSeen.get(info.sessionId);
    for (const key of COUNT_KEYS) this.endedTotals[key] += Math.max(info.counters?.[key] ?? 0, last?.[key] ?? 0);
    this.lastSeen.delete(info.sessionId);
    this.endedIds.add(info.sessionId);
    if (this.endedIds.size > 1000) this.endedIds.delete(this.endedIds.values().next().value as string);
  }

  /** A runtime became warm (or went straight to a waiting session) after `launchMs`. */
  runtimeLaunched(launchMs: number): void {
    this.launchSeconds.observe(launchMs / 1000);
  }

  runtimeCrashed(phase: 'warm' | 'session'): void {
    this.crashes.inc({ phase });
  }

  /** Ended sessions' counters plus the live ones' (read now, the last reading if one cannot answer). */
  private async totals(): Promise<Counts> {
    const live = this.src.liveSessions().map((s) => s.sessionId);
    await Promise.all(
      live.map(async (id) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), COUNTERS_TIMEOUT_MS)));
        const counters = await Promise.race([this.src.counters(id).catch(() => null), timeout]);
        clearTimeout(timer);
        if (!counters || this.endedIds.has(id)) return;
        const prev = this.lastSeen.get(id);
        const next = zero();
        for (const key of COUNT_KEYS) next[key] = Math.max(counters[key] ?? 0, prev?.[key] ?? 0);
        this.lastSeen.set(id, next);
      }),
    );
    const sums = { ...this.endedTotals };
    for (const counts of this.lastSeen.values()) for (const key of COUNT_KEYS) sums[key] += counts[key];
    return sums;
  }
}
