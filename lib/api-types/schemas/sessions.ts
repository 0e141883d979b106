/**
 * The game-session API's wire contract (spec section 7, docs/sessions.md), written once as TypeBox
 * schemas: the api validates and serialises with them, and their `Static` types are what the
 * browser's client (lib/api/sessions.ts, lib/api/mylist.ts) and the streaming adapters read.
 * Browser code imports only the types from here (`import type`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { QUALITY_LEVELS } from '../../streaming/messages';
import { COLLECT_STATS_MAX_KEYS, PROVIDER_NAMES, SESSION_STATES } from '../sessions';
import { closed, GameIdString, NextCursor, okAnswer, UuidString } from './common';

export const SessionStateSchema = Type.Union(SESSION_STATES.map((state) => Type.Literal(state)));
export const QualityLevelSchema = Type.Union(QUALITY_LEVELS.map((level) => Type.Literal(level)));
export const ProviderNameSchema = Type.Union(PROVIDER_NAMES.map((name) => Type.Literal(name)));

/** Path params of every /v1/session/{sessionId}/… call. */
export const SessionParams = closed({ sessionId: UuidString });
export type SessionParams = Static<typeof SessionParams>;

/** Path params of /v1/game/{gameId}/start (and every other per-title route). */
export const GameParams = closed({ gameId: GameIdString });
export type GameParams = Static<typeof GameParams>;

/** GET /v1/session/all */
export const SessionListAnswer = okAnswer({
  game_sessions: Type.Array(closed({ id: Type.String(), game_id: Type.String() })),
});
export type SessionListAnswer = Static<typeof SessionListAnswer>;

/** Query of GET /v1/game/{gameId}/start: the initial video quality handed to the host. */
export const StartQuery = Type.Object({ quality: Type.Optional(QualityLevelSchema) });
export type StartQuery = Static<typeof StartQuery>;

/** GET /v1/game/{gameId}/start */
export const SessionStartAnswer = okAnswer({ game_session_id: Type.String() });
export type SessionStartAnswer = Static<typeof SessionStartAnswer>;

/** GET /v1/session/{sessionId}/status */
export const SessionStatusAnswer = okAnswer({
  session_state: SessionStateSchema,
  /** 1-based position in the waiting queue; only while `queued`. */
  queue_position: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Only when `failed` (SessionFailureReason). */
  failure_reason: Type.Optional(Type.String()),
});
export type SessionStatusAnswer = Static<typeof SessionStatusAnswer>;

/** GET /v1/session/{sessionId}/force_close */
export const SessionForceCloseAnswer = okAnswer({});
export type SessionForceCloseAnswer = Static<typeof SessionForceCloseAnswer>;

/** One STUN/TURN server, as RTCIceServer. */
export const IceServerSchema = closed({
  urls: Type.Union([Type.String({ maxLength: 512 }), Type.Array(Type.String({ maxLength: 512 }), { maxItems: 8 })]),
  username: Type.Optional(Type.String({ maxLength: 512 })),
  credential: Type.Optional(Type.String({ maxLength: 512 })),
});
export type IceServer = Static<typeof IceServerSchema>;

/**
 * GET /v1/session/{sessionId}/get_token: the spec's agora/trtc fields (always present; empty
 * strings when that provider is not configured) plus our webrtc fields and the provider to use.
 * The browser turns it into a SessionToken (lib/streaming/types.ts), a union by provider.
 */
export const SessionTokenAnswer = okAnswer({
  agora_app_id: Type.String(),
  agora_channel_name: Type.String(),
  agora_rtc_token: Type.String(),
  agora_rtm_token: Type.String(),
  user_id_for_client: Type.String(),
  trtc_sdk_app_id: Type.String(),
  trtc_user_sig_for_client: Type.String(),
  trtc_room_id: Type.String(),
  webrtc_signal_url: Type.String(),
  webrtc_signal_token: Type.String(),
  webrtc_ice_servers: Type.Array(IceServerSchema),
  provider: ProviderNameSchema,
});
export type SessionTokenAnswer = Static<typeof SessionTokenAnswer>;

/** The spec's agora/trtc fields of get_token (what services/tokens.ts builds). */
export type ProviderTokenFields = Pick<
  SessionTokenAnswer,
  | 'agora_app_id'
  | 'agora_channel_name'
  | 'agora_rtc_token'
  | 'agora_rtm_token'
  | 'user_id_for_client'
  | 'trtc_sdk_app_id'
  | 'trtc_user_sig_for_client'
  | 'trtc_room_id'
>;

// ── screenshots ───────────────────────────────────────────────────────────────────────────

/** One screenshot's metadata (GET /v1/screenshots, GET /v1/screenshots/{id}). */
export const ScreenshotSchema = closed({
  id: Type.String(),
  game_id: Type.String(),
  session_id: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  bytes: Type.Integer(),
  /** ISO 8601. */
  created_at: Type.String(),
});
export type ScreenshotWire = Static<typeof ScreenshotSchema>;

export const ScreenshotListAnswer = okAnswer({
  screenshots: Type.Array(ScreenshotSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: NextCursor,
});
export type ScreenshotListAnswer = Static<typeof ScreenshotListAnswer>;

export const ScreenshotDetailAnswer = okAnswer({ screenshot: ScreenshotSchema });
export type ScreenshotDetailAnswer = Static<typeof ScreenshotDetailAnswer>;

/**
 * GET /v1/screenshots/{id}/image: the full-resolution PNG as stored (the viewer, downloads and
 * shares). Binary, sent as is, never serialised.
 */
export const ScreenshotPngBody = Type.Unsafe<Uint8Array>({ type: 'string', contentMediaType: 'image/png' });

/**
 * GET /v1/screenshots/{id}/thumbnail: what a gallery tile shows, a WebP at most this size (the
 * PNG scaled down to fit, never up; aspect kept), generated once on the server and cached beside
 * the PNG (docs/mylist.md "Thumbnails"). `version` names the recipe in the cache key and the ETag:
 * changing the size or quality changes it, so old thumbnails are never served for new ones.
 */
export const SCREENSHOT_THUMBNAIL = { width: 320, height: 180, quality: 75, version: 'w320q75' } as const;
export const ScreenshotThumbnailBody = Type.Unsafe<Uint8Array>({ type: 'string', contentMediaType: 'image/webp' });

// ── collect ───────────────────────────────────────────────────────────────────────────────

/** 7 days in milliseconds: longer than any session. */
export const COLLECT_MAX_ELAPSED_MS = 7 * 24 * 3600 * 1000;

/** POST /collect (the beacon; sent with navigator.sendBeacon, no token). */
export const CollectBeaconBody = closed({
  sessionId: UuidString,
  gameId: GameIdString,
  /** Milliseconds spent on the play page. */
  elapsed: Type.Number({ minimum: 0, maximum: COLLECT_MAX_ELAPSED_MS }),
});
export type CollectBeaconBody = Static<typeof CollectBeaconBody>;

/** POST /v1/collect/stats/webrtc (bearer). `stats` is flat: numbers and short strings. */
export const CollectWebrtcStatsBody = closed({
  sessionId: UuidString,
  gameId: GameIdString,
  stats: Type.Unsafe<Record<string, number | string>>({
    type: 'object',
    maxProperties: COLLECT_STATS_MAX_KEYS,
    propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,64}$' },
    additionalProperties: { anyOf: [{ type: 'number' }, { type: 'string', maxLength: 256 }] },
  }),
});
export type CollectWebrtcStatsBody = Static<typeof CollectWebrtcStatsBody>;
