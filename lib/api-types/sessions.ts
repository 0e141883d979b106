/**
 * The game-session vocabulary (docs/sessions.md) that both sides need at run time: the session
 * states (declared here and nowhere else), failure and close reasons, providers and the collect
 * limits (the open demo's id is in ./openDemo.ts: it reads the environment).
 * Plain constants, so browser code may import them. The answers' shapes (TypeBox schemas and
 * their types) are in ./schemas/sessions.ts, built from these.
 */

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

/** The streaming providers behind lib/streaming (get_token's `provider`). */
export const PROVIDER_NAMES = ['webrtc', 'agora', 'trtc'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const COLLECT_BEACON_MAX_BYTES = 2 * 1024;
export const COLLECT_STATS_MAX_BYTES = 16 * 1024;
export const COLLECT_STATS_MAX_KEYS = 64;
