/**
 * The agent's own answers (GET /health, POST/DELETE/GET /sessions…; docs/host.md "The agent's
 * routes") as TypeBox schemas, each written once: the routes (routes/*.ts) serialise with them and
 * the code that builds the values takes its types from them (pool stats, a session's info, the
 * bridge's counters and ready info, the engine summary). What the api sends and the host reports
 * is the host ⇄ api contract, server/shared/host-contract.ts.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { okAnswer } from '../../lib/api-types/schemas/common';
import { QualityLevelSchema } from '../../lib/api-types/schemas/sessions';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Query strings stay open where a route takes none (a monitor's cache buster is not a 400). */
export const AnyQuery = Type.Object({});

// ── the pool ──────────────────────────────────────────────────────────────────────────────

export const PoolStatsSchema = Type.Object({
  capacity: Type.Integer(),
  warmTarget: Type.Integer(),
  warm: Type.Integer(),
  busy: Type.Integer(),
  launching: Type.Integer(),
  waiting: Type.Integer(),
  launches: Type.Integer(),
  launchFailures: Type.Integer(),
  kills: Type.Integer(),
  /** ms of the last successful launch (cold start of a runtime). */
  lastLaunchMs: Nullable(Type.Number()),
});
export type PoolStats = Static<typeof PoolStatsSchema>;

// ── a session ─────────────────────────────────────────────────────────────────────────────

export const HostSessionStateSchema = Type.Union(
  (['starting', 'ready', 'playing', 'closing', 'closed', 'failed'] as const).map((state) => Type.Literal(state)),
);
export type HostSessionState = Static<typeof HostSessionStateSchema>;

/** What the bridge's begin() answers once the game runs and is published. */
export const BridgeReadyInfoSchema = Type.Object({
  gameId: Type.String(),
  title: Type.String(),
  /** ms yumecast.start() took (load story, art, fonts). */
  startMs: Type.Number(),
  /** ms the whole begin() took (start + capture + publish). */
  beginMs: Type.Number(),
});
export type BridgeReadyInfo = Static<typeof BridgeReadyInfoSchema>;

/** Counters of one session, kept by the bridge (server/host/page/bridge.ts). */
export const BridgeCountersSchema = Type.Object({
  /** Raw data-channel messages received. */
  received: Type.Integer(),
  /** Dropped because they were not exactly a protocol message. */
  malformed: Type.Integer(),
  /** Dropped by the rate limiter. */
  rateLimited: Type.Integer(),
  /** Input messages (pointer, key, wheel) passed to yumecast.applyInput. */
  inputs: Type.Integer(),
  /** Input messages the engine refused (returned false). */
  inputsRefused: Type.Integer(),
  pings: Type.Integer(),
  screenshots: Type.Integer(),
  qualityChanges: Type.Integer(),
  quality: QualityLevelSchema,
  idleWarnings: Type.Integer(),
  /** `error` notices sent to the player (rate_limited, bad_message). */
  notices: Type.Integer(),
  /** Times a player connected (1 + reconnects). */
  connections: Type.Integer(),
  /** ms since the last player action. */
  idleMs: Type.Number(),
  /** Times the signalling WebSocket opened (1 + reconnects after an api restart). */
  signalOpens: Type.Integer(),
  /** Offers that went out on a connection made before the player joined (publisher prepare()). */
  offersAhead: Type.Integer(),
  /** The bandwidth estimate's ceiling (x-google-max-bitrate, kbit/s) set on the last answer; 0 = none (HOST_BITRATE_FLOOR=0). */
  estimateMaxKbps: Type.Number(),
  connection: Type.Union((['waiting', 'connected', 'reconnecting', 'closed'] as const).map((state) => Type.Literal(state))),
});
export type BridgeCounters = Static<typeof BridgeCountersSchema>;

/** What the engine shows (runtime.ts engineState(): window.yumecast.getState(), trimmed). */
export const EngineSummarySchema = Type.Object({
  screen: Type.String(),
  overlay: Nullable(Type.String()),
  scene: Nullable(Type.String()),
  speakerName: Nullable(Type.String()),
  visibleText: Type.String(),
  choices: Type.Array(Type.String()),
  lineCount: Type.Number(),
  ending: Nullable(Type.String()),
  quality: Type.String(),
  frame: Type.Number(),
});
export type EngineSummary = Static<typeof EngineSummarySchema>;

/** One session as GET /sessions/:sessionId shows it (live or recently ended). */
export const SessionInfoSchema = Type.Object({
  sessionId: Type.String(),
  gameId: Type.String(),
  state: HostSessionStateSchema,
  runtimeId: Nullable(Type.String()),
  /** ms from the start request to `ready`. */
  startMs: Nullable(Type.Number()),
  /** Whether the runtime came from the warm pool (false = a cold start). */
  fromWarm: Nullable(Type.Boolean()),
  ready: Nullable(BridgeReadyInfoSchema),
  endReason: Nullable(Type.String()),
  counters: Nullable(BridgeCountersSchema),
  /** Requests and WebSockets the runtime's context blocked. */
  blocked: Nullable(Type.Object({ requests: Type.Integer(), websockets: Type.Integer() })),
  saves: Type.Integer(),
  screenshots: Type.Integer(),
  endings: Type.Array(Type.String()),
  engine: Nullable(EngineSummarySchema),
  /**
   * What the live runtime uses (server/host/procs.ts sessionFootprint): its own processes (the
   * context's renderers), memory as its own PSS plus its share of its browser's processes, and
   * how many runtimes share that browser. Null once the runtime is gone.
   */
  footprint: Nullable(
    Type.Object({ ownPids: Type.Array(Type.Integer()), pssMb: Type.Number(), processes: Type.Number(), sharers: Type.Integer() }),
  ),
});
export type SessionInfo = Static<typeof SessionInfoSchema>;

export const SessionSummarySchema = Type.Object({ sessionId: Type.String(), gameId: Type.String(), state: HostSessionStateSchema });
export type SessionSummary = Static<typeof SessionSummarySchema>;

// ── the routes' answers ───────────────────────────────────────────────────────────────────

export const AgentStateSchema = Type.Union((['starting', 'running', 'shutting_down', 'stopped'] as const).map((state) => Type.Literal(state)));
export type AgentState = Static<typeof AgentStateSchema>;

/** GET /health (no secret) */
export const HealthAnswer = okAnswer({
  hostId: Type.String(),
  state: AgentStateSchema,
  registered: Type.Boolean(),
  /** The host state the api last answered (Ready, Allocated, Shutdown), or null. */
  apiState: Nullable(Type.String()),
  capacity: Type.Integer(),
  activeSessions: Type.Integer(),
  warm: Type.Integer(),
  launching: Type.Integer(),
});

/** POST /sessions → 202 */
export const StartAnswer = okAnswer({ sessionId: Type.String(), state: HostSessionStateSchema });

/** DELETE /sessions/:sessionId */
export const StopAnswer = okAnswer({ state: HostSessionStateSchema });

/** GET /sessions */
export const SessionListAnswer = okAnswer({
  sessions: Type.Array(SessionSummarySchema),
  pool: PoolStatsSchema,
  /** Chromium processes on the machine (all of them, not only this agent's). */
  chromiumProcesses: Type.Integer(),
});

/** GET /sessions/:sessionId */
export const SessionInfoAnswer = okAnswer({ session: SessionInfoSchema });
