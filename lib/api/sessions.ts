/**
 * The game-session calls of spec section 7. Each one rejects unless the answer has
 * `status: "ok"` and its expected fields (spec section 5), throwing the spec's named error
 * (section 8) with the server's code inside.
 */
import { toSessionToken, type SessionToken, type SessionTokenWire } from '@/lib/streaming/types';
import { apiRequest, ApiClientError } from './client';

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

export type SessionState = 'queued' | 'allocating' | 'starting' | 'ready' | 'playing' | 'closing' | 'closed' | 'failed';
const STATES: readonly string[] = ['queued', 'allocating', 'starting', 'ready', 'playing', 'closing', 'closed', 'failed'];

export interface SessionStatus {
  state: SessionState;
  queuePosition: number | null;
  failureReason: string | null;
}

async function call<T extends object>(name: SessionErrorName, path: string, valid: (r: T) => boolean): Promise<T> {
  let r: T;
  try {
    r = await apiRequest<T>(path);
  } catch (e) {
    if (e instanceof ApiClientError) throw new SessionError(name, e.code, e.userMessage, e.httpStatus);
    throw new SessionError(name, 'unexpected', 'エラーが発生しました。もう一度お試しください。');
  }
  if (!valid(r)) throw new SessionError(name, 'bad_response', 'サーバーから予期しない応答がありました。もう一度お試しください。');
  return r;
}

const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const enc = encodeURIComponent;

export async function getSessionAll(): Promise<GameSession[]> {
  const r = await call<{ game_sessions: { id: string; game_id: string }[] }>('getSessionAllError', '/v1/session/all', (r) =>
    Array.isArray(r.game_sessions) && r.game_sessions.every((s) => isStr(s?.id) && isStr(s?.game_id)),
  );
  return r.game_sessions.map((s) => ({ sessionId: s.id, gameId: s.game_id }));
}

export async function startGame(gameId: string): Promise<string> {
  const r = await call<{ game_session_id: string }>('startGameError', `/v1/game/${enc(gameId)}/start`, (r) => isStr(r.game_session_id));
  return r.game_session_id;
}

export async function getSessionStatus(sessionId: string): Promise<SessionStatus> {
  const r = await call<{ session_state: string; queue_position?: number | null; failure_reason?: string | null }>(
    'getSessionStatusError',
    `/v1/session/${enc(sessionId)}/status`,
    (r) => STATES.includes(r.session_state),
  );
  return { state: r.session_state as SessionState, queuePosition: r.queue_position ?? null, failureReason: r.failure_reason ?? null };
}

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

export async function getSessionToken(sessionId: string): Promise<SessionToken> {
  const r = await call<SessionTokenWire>('getSessionTokenError', `/v1/session/${enc(sessionId)}/get_token`, (r) => {
    const rec = r as unknown as Record<string, unknown>;
    return TOKEN_FIELDS.every((f) => typeof rec[f] === 'string') && (r.provider !== 'webrtc' || (isStr(r.webrtc_signal_url) && isStr(r.webrtc_signal_token)));
  });
  return toSessionToken({ ...r, provider: r.provider ?? 'webrtc', webrtc_ice_servers: r.webrtc_ice_servers ?? [] });
}

export async function forceClose(sessionId: string): Promise<void> {
  await call<object>('sessionForceDisconnectError', `/v1/session/${enc(sessionId)}/force_close`, () => true);
}
