/**
 * Wire types of the game-session API (docs/sessions.md), shared by the api (which produces them)
 * and the browser (which checks them). The get_token answer is SessionTokenWire in
 * lib/streaming/types.ts.
 */
import type { QualityLevel } from '../streaming/messages';

/** Session states, in lifecycle order (DESIGN section 4). */
export const SESSION_STATES = ['queued', 'allocating', 'starting', 'ready', 'playing', 'closing', 'closed', 'failed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** States in which a session is over. */
export const ENDED_SESSION_STATES: readonly SessionState[] = ['closed', 'failed'];
/** States in which a session holds (or waits for) a runtime. */
export const LIVE_SESSION_STATES: readonly SessionState[] = ['queued', 'allocating', 'starting', 'ready', 'playing', 'closing'];

export function isSessionState(value: unknown): value is SessionState {
  return typeof value === 'string' && (SESSION_STATES as readonly string[]).includes(value);
}

export function isLiveSessionState(state: SessionState): boolean {
  return state !== 'closed' && state !== 'failed';
}

/** Why a session failed (`failure_reason`); a host may also report its own short reason. */
export type SessionFailureReason =
  | 'host_lost'
  | 'host_shutdown'
  | 'host_restarted'
  | 'host_unavailable'
  | 'start_timeout'
  | 'runtime_lost'
  | (string & {});

/** Why a session closed normally (the signalling `closed` frame's reason). */
export type SessionCloseReason = 'user' | 'idle' | 'not_joined' | 'disconnected' | 'abandoned' | 'host' | 'close_timeout';

/** GET /v1/session/all */
export interface SessionListWire {
  status: 'ok';
  game_sessions: { id: string; game_id: string }[];
}

/** GET /v1/game/{gameId}/start */
export interface SessionStartWire {
  status: 'ok';
  game_session_id: string;
}

/** GET /v1/session/{sessionId}/status */
export interface SessionStatusWire {
  status: 'ok';
  session_state: SessionState;
  /** 1-based position in the waiting queue; only while `queued`. */
  queue_position?: number;
  /** Only when `failed`. */
  failure_reason?: SessionFailureReason;
}

/** GET /v1/session/{sessionId}/force_close */
export interface SessionForceCloseWire {
  status: 'ok';
}

/** Optional query of start: the initial video quality handed to the host. */
export type StartQuality = QualityLevel;

/** One screenshot's metadata (GET /v1/screenshots, GET /v1/screenshots/{id}). */
export interface ScreenshotWire {
  id: string;
  game_id: string;
  session_id: string;
  width: number;
  height: number;
  bytes: number;
  /** ISO 8601. */
  created_at: string;
}

export interface ScreenshotListWire {
  status: 'ok';
  screenshots: ScreenshotWire[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export interface ScreenshotDetailWire {
  status: 'ok';
  screenshot: ScreenshotWire;
}

/** POST /collect (the beacon; sent with navigator.sendBeacon, no token). */
export interface CollectBeaconBody {
  sessionId: string;
  gameId: string;
  /** Milliseconds spent on the play page. */
  elapsed: number;
}

/** POST /v1/collect/stats/webrtc (bearer). `stats` is flat: numbers and short strings. */
export interface CollectWebrtcStatsBody {
  sessionId: string;
  gameId: string;
  stats: Record<string, number | string>;
}

export const COLLECT_BEACON_MAX_BYTES = 2 * 1024;
export const COLLECT_STATS_MAX_BYTES = 16 * 1024;
export const COLLECT_STATS_MAX_KEYS = 64;
