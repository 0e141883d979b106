/**
 * The game-session calls of spec section 7. Each one rejects unless the answer has
 * `status: "ok"` and its expected fields (spec section 5), throwing the spec's named error
 * (section 8) with the server's code inside. The answers' shapes are the contract's
 * (lib/api-types/schemas/sessions.ts, types only); the session states are lib/api-types/sessions.ts.
 */
import type { SessionListAnswer, SessionStartAnswer, SessionStatusAnswer, SessionTokenAnswer } from '@/lib/api-types/schemas/sessions';
import { isSessionState, PROVIDER_NAMES, type ProviderName, type SessionState } from '@/lib/api-types/sessions';
import type { QualityLevel } from '@/lib/streaming/messages';
import { toSessionToken, type SessionToken } from '@/lib/streaming/types';
import { apiRequest, ApiClientError, messageFor } from './client';

export type { SessionState } from '@/lib/api-types/sessions';

export type SessionErrorName = 'getSessionAllError' | 'startGameError' | 'getSessionStatusError' | 'getSessionTokenError' | 'sessionForceDisconnectError';

export class SessionError extends Error {
  constructor(
    name: SessionErrorName,
    /** The server's typed code (e.g. instance_limit) or our own (bad_response, network…). */
    readonly code: string,
    readonly userMessage: string,
    readonly httpStatus = 0,
  ) {
    super(`${name}: ${code}`);
    this.name = name;
  }
}

/** Game session of spec section 3. */
export interface GameSession {
  sessionId: string;
  gameId: string;
}

export interface SessionStatus {
  state: SessionState;
  queuePosition: number | null;
  failureReason: string | null;
}

/** A get_token answer naming a provider this build does not know (a newer api). */
export const UNSUPPORTED_PROVIDER = 'unsupported_provider';

/** An answer as it may arrive: the contract's fields, none of them trusted yet. */
type Unchecked<T> = { [K in keyof T]?: unknown };

async function call<T extends object>(name: SessionErrorName, path: string, valid: (r: Unchecked<T>) => boolean): Promise<T> {
  let r: Unchecked<T>;
  try {
    r = await apiRequest<Unchecked<T>>(path);
  } catch (e) {
    if (e instanceof ApiClientError) throw new SessionError(name, e.code, e.userMessage, e.httpStatus);
    throw new SessionError(name, 'unexpected', messageFor('unexpected'));
  }
  if (!valid(r)) throw new SessionError(name, 'bad_response', messageFor('bad_response'));
  return r as T;
}

const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const enc = encodeURIComponent;

export async function getSessionAll(): Promise<GameSession[]> {
  const r = await call<SessionListAnswer>('getSessionAllError', '/v1/session/all', (r) =>
    Array.isArray(r.game_sessions) && r.game_sessions.every((s: unknown) => isRecord(s) && isStr(s.id) && isStr(s.game_id)),
  );
  return r.game_sessions.map((s) => ({ sessionId: s.id, gameId: s.game_id }));
}

/** Starts a session of the title; `quality` is the initial video quality (the player's saved choice). */
export async function startGame(gameId: string, quality?: QualityLevel): Promise<string> {
  const query = quality ? `?quality=${enc(quality)}` : '';
  const r = await call<SessionStartAnswer>('startGameError', `/v1/game/${enc(gameId)}/start${query}`, (r) => isStr(r.game_session_id));
  return r.game_session_id;
}

export async function getSessionStatus(sessionId: string): Promise<SessionStatus> {
  const r = await call<SessionStatusAnswer>('getSessionStatusError', `/v1/session/${enc(sessionId)}/status`, (r) => isSessionState(r.session_state));
  return { state: r.session_state, queuePosition: r.queue_position ?? null, failureReason: r.failure_reason ?? null };
}

/** The spec's get_token fields (section 7): always strings, empty for an unconfigured provider. */
const TOKEN_FIELDS = [
  'agora_app_id',
  'agora_channel_name',
  'agora_rtc_token',
  'agora_rtm_token',
  'user_id_for_client',
  'trtc_sdk_app_id',
  'trtc_user_sig_for_client',
  'trtc_room_id',
] as const;

const isProvider = (v: unknown): v is ProviderName => (PROVIDER_NAMES as readonly unknown[]).includes(v);

export async function getSessionToken(sessionId: string): Promise<SessionToken> {
  const r = await call<SessionTokenAnswer>('getSessionTokenError', `/v1/session/${enc(sessionId)}/get_token`, (r) => {
    // An api from before the provider field serves webrtc.
    const provider = r.provider ?? 'webrtc';
    return TOKEN_FIELDS.every((f) => typeof r[f] === 'string') && (provider !== 'webrtc' || (isStr(r.webrtc_signal_url) && isStr(r.webrtc_signal_token)));
  });
  const provider: unknown = r.provider ?? 'webrtc';
  if (!isProvider(provider)) throw new SessionError('getSessionTokenError', UNSUPPORTED_PROVIDER, messageFor('unexpected'));
  return toSessionToken({ ...r, provider, webrtc_ice_servers: Array.isArray(r.webrtc_ice_servers) ? r.webrtc_ice_servers : [] });
}

export async function forceClose(sessionId: string): Promise<void> {
  await call<object>('sessionForceDisconnectError', `/v1/session/${enc(sessionId)}/force_close`, () => true);
}
