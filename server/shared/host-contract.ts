/**
 * The host ⇄ api contract (docs/sessions.md §4), written once as TypeBox schemas: the header
 * names, the api's calls to a host (start a session, stop it) and the host's calls to the api
 * (register, heartbeat, shut down, session reports). The host agent (server/host), the api's host
 * client (server/api/services/hostClient.ts) and its internal routes (server/api/routes/internal.ts)
 * all import from here, so the two sides cannot drift apart.
 */
import { Type, type Static } from '@sinclair/typebox';
import { GameIdString, OkOnly, closed, okAnswer, UuidString } from '../../lib/api-types/schemas/common';
import { IceServerSchema, ProviderNameSchema, QualityLevelSchema, SessionStateSchema } from '../../lib/api-types/schemas/sessions';

export { OkOnly };

/** The shared secret every call carries (compared in constant time: server/shared/secret.ts). */
export const HOST_SECRET_HEADER = 'x-host-secret';
/** The host's id on its reports to the api (must be the session's host). */
export const HOST_ID_HEADER = 'x-host-id';

export const HOST_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
export const HOST_ID_RE = new RegExp(HOST_ID_PATTERN);
/**
 * Session ids as the host accepts them: the api sends UUIDs (a subset); the host's own tests and
 * benches name sessions freely within this alphabet.
 */
export const HOST_SESSION_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** A save slot's name. */
export const SAVE_SLOT_PATTERN = '^[a-z0-9_-]{1,32}$';

export const SCREENSHOT_MAX_BYTES = 8 * 1024 * 1024;
export const SAVE_BODY_LIMIT = 512 * 1024;

// ── api → host ────────────────────────────────────────────────────────────────────────────

/** Close reasons of DELETE {host}/sessions/:id?reason=… */
export const API_CLOSE_REASONS = ['user', 'idle', 'not_joined', 'disconnected', 'start_timeout'] as const;
export type ApiCloseReason = (typeof API_CLOSE_REASONS)[number];

/** One stored save as the api hands it over. */
export const ApiSaveSchema = Type.Object({
  slot: Type.String({ pattern: SAVE_SLOT_PATTERN }),
  state: Type.Record(Type.String(), Type.Unknown()),
  updatedAt: Type.Optional(Type.String()),
});
export type ApiSave = Static<typeof ApiSaveSchema>;

const IdleMs = Type.Integer({ minimum: 10, maximum: 86_400_000 });

/** Body of POST {host}/sessions. */
export const StartSessionBody = Type.Object(
  {
    sessionId: Type.String({ pattern: HOST_SESSION_ID_PATTERN }),
    gameId: GameIdString,
    uid: Type.String({ minLength: 1, maxLength: 128 }),
    signalUrl: Type.String({ pattern: '^wss?://[^\\s]+$', maxLength: 2048 }),
    signalToken: Type.String({ minLength: 1, maxLength: 8192 }),
    iceServers: Type.Optional(Type.Array(IceServerSchema, { maxItems: 16 })),
    quality: Type.Optional(QualityLevelSchema),
    provider: Type.Optional(ProviderNameSchema),
    /** The engine state to resume from (the engine's save JSON), or null. */
    resumeState: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    saves: Type.Optional(Type.Array(ApiSaveSchema, { maxItems: 64 })),
    idleWarningMs: Type.Optional(IdleMs),
    idleCloseMs: Type.Optional(IdleMs),
  },
  // the api may add fields in later versions: unknown ones are ignored, known ones are checked
  { additionalProperties: true },
);
export type StartSessionBody = Static<typeof StartSessionBody>;

/** Path params of {host}/sessions/:sessionId. */
export const HostSessionParams = closed({ sessionId: Type.String({ pattern: HOST_SESSION_ID_PATTERN }) });
export type HostSessionParams = Static<typeof HostSessionParams>;

/** A host's or the api's short reason (e.g. runtime_crashed, idle): lower-case words. */
export const REPORT_REASON_PATTERN = '^[a-z0-9_]{1,64}$';

/** Query of DELETE {host}/sessions/:sessionId. */
export const StopSessionQuery = Type.Object({ reason: Type.Optional(Type.String({ pattern: REPORT_REASON_PATTERN })) });
export type StopSessionQuery = Static<typeof StopSessionQuery>;

// ── host → api: registry ──────────────────────────────────────────────────────────────────

/** Agones-like host states. */
export const HostStateSchema = Type.Union([Type.Literal('Ready'), Type.Literal('Allocated'), Type.Literal('Shutdown'), Type.Literal('Unhealthy')]);
export type HostState = Static<typeof HostStateSchema>;

export const HostParams = closed({ hostId: Type.String({ pattern: HOST_ID_PATTERN }) });
export type HostParams = Static<typeof HostParams>;

/** POST /internal/hosts/register */
export const RegisterBody = closed({
  hostId: Type.String({ pattern: HOST_ID_PATTERN }),
  url: Type.String({ pattern: '^https?://[^\\s?#]+$', maxLength: 512 }),
  capacity: Type.Integer({ minimum: 0, maximum: 256 }),
  warm: Type.Optional(Type.Integer({ minimum: 0, maximum: 256 })),
});
export type RegisterBody = Static<typeof RegisterBody>;
export const RegisterAnswer = okAnswer({ state: HostStateSchema, heartbeatIntervalMs: Type.Integer(), heartbeatTimeoutMs: Type.Integer() });
export type RegisterAnswer = Static<typeof RegisterAnswer>;

/** POST /internal/hosts/:hostId/heartbeat */
export const HeartbeatBody = closed({
  activeSessions: Type.Integer({ minimum: 0, maximum: 10_000 }),
  warm: Type.Integer({ minimum: 0, maximum: 10_000 }),
  sessionIds: Type.Optional(Type.Array(UuidString, { maxItems: 1024 })),
});
export type HeartbeatBody = Static<typeof HeartbeatBody>;
/** `sessions`: the ids the api still wants running on this host (the host ends any other). */
export const HeartbeatAnswer = okAnswer({ state: HostStateSchema, sessions: Type.Array(Type.String()) });
export type HeartbeatAnswer = Static<typeof HeartbeatAnswer>;

/** POST /internal/hosts/:hostId/shutdown */
export const ShutdownBody = closed({});
export const ShutdownAnswer = okAnswer({ state: HostStateSchema });
export type ShutdownAnswer = Static<typeof ShutdownAnswer>;

// ── host → api: session reports ───────────────────────────────────────────────────────────

/** Path params of /internal/sessions/:sessionId/… */
export const ReportParams = closed({ sessionId: UuidString });
export type ReportParams = Static<typeof ReportParams>;

/** The states a host reports (the api owns the others). */
export const HOST_REPORTED_STATES = ['starting', 'ready', 'playing', 'closed', 'failed'] as const;
export type HostReportedState = (typeof HOST_REPORTED_STATES)[number];

/** POST /internal/sessions/:sessionId/state */
export const StateReportBody = closed({
  state: Type.Union(HOST_REPORTED_STATES.map((state) => Type.Literal(state))),
  reason: Type.Optional(Type.String({ pattern: REPORT_REASON_PATTERN })),
});
export type StateReportBody = Static<typeof StateReportBody>;
export const StateReportAnswer = okAnswer({ session_state: SessionStateSchema });
export type StateReportAnswer = Static<typeof StateReportAnswer>;

/** POST /internal/sessions/:sessionId/saves */
export const SaveBody = closed({ slot: Type.String({ pattern: SAVE_SLOT_PATTERN }), state: Type.Record(Type.String(), Type.Unknown()) });
export type SaveBody = Static<typeof SaveBody>;
export const SaveAnswer = okAnswer({ updatedAt: Type.String() });
export type SaveAnswer = Static<typeof SaveAnswer>;

/** POST /internal/sessions/:sessionId/screenshots (body: image/png) */
export const ScreenshotAnswer = okAnswer({ screenshotId: Type.String() });
export type ScreenshotAnswer = Static<typeof ScreenshotAnswer>;

/** POST /internal/sessions/:sessionId/input-activity */
export const InputActivityBody = closed({ at: Type.Optional(Type.Number({ minimum: 0, maximum: 8.64e15 })) });
export type InputActivityBody = Static<typeof InputActivityBody>;

/**
 * The Agones counter a host's session slots are kept in (capacity = HOST_CAPACITY, count = its
 * sessions): set by the host's SDK client (server/host/fleet/agones.ts), asked for by the api's
 * allocator request (placement/allocatorClient.ts), declared on the Fleet (deploy/).
 */
export const SESSIONS_COUNTER = 'sessions';
