/**
 * The host ↔ api contract of docs/sessions.md §4, as the host sees it: the header names, the
 * start request the api sends (POST {host}/sessions), the reports the host sends back.
 */
import type { QualityLevel } from '../../lib/streaming/messages';

export const HOST_SECRET_HEADER = 'x-host-secret';
export const HOST_ID_HEADER = 'x-host-id';

export type HostReportedState = 'starting' | 'ready' | 'playing' | 'closed' | 'failed';

/** Close reasons of DELETE {host}/sessions/:id?reason=… */
export const API_CLOSE_REASONS = ['user', 'idle', 'not_joined', 'disconnected', 'start_timeout'] as const;

/** One stored save as the api hands it over. */
export interface ApiSave {
  slot: string;
  state: Record<string, unknown>;
  updatedAt?: string;
}

/** Body of POST {host}/sessions. */
export interface StartSessionRequest {
  sessionId: string;
  gameId: string;
  uid: string;
  signalUrl: string;
  signalToken: string;
  iceServers: RTCIceServer[];
  quality?: QualityLevel;
  provider?: string;
  /** The engine state to resume from (an object; the engine's save JSON), or null. */
  resumeState?: Record<string, unknown> | null;
  saves?: ApiSave[];
  idleWarningMs?: number;
  idleCloseMs?: number;
}

export const SESSION_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
export const GAME_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';

export const startSessionSchema = {
  type: 'object',
  required: ['sessionId', 'gameId', 'uid', 'signalUrl', 'signalToken'],
  // the api may add fields in later versions: unknown ones are ignored, known ones are checked
  additionalProperties: true,
  properties: {
    sessionId: { type: 'string', pattern: SESSION_ID_PATTERN },
    gameId: { type: 'string', pattern: GAME_ID_PATTERN },
    uid: { type: 'string', minLength: 1, maxLength: 128 },
    signalUrl: { type: 'string', pattern: '^wss?://[^\\s]+$', maxLength: 2048 },
    signalToken: { type: 'string', minLength: 1, maxLength: 8192 },
    iceServers: {
      type: 'array',
      maxItems: 16,
      items: {
        type: 'object',
        required: ['urls'],
        additionalProperties: false,
        properties: {
          urls: {
            anyOf: [
              { type: 'string', maxLength: 512 },
              { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 512 } },
            ],
          },
          username: { type: 'string', maxLength: 512 },
          credential: { type: 'string', maxLength: 512 },
        },
      },
    },
    quality: { type: 'string', enum: ['high', 'medium', 'low'] },
    provider: { type: 'string', enum: ['webrtc', 'agora', 'trtc'] },
    resumeState: { anyOf: [{ type: 'object' }, { type: 'null' }] },
    saves: {
      type: 'array',
      maxItems: 64,
      items: {
        type: 'object',
        required: ['slot', 'state'],
        properties: {
          slot: { type: 'string', pattern: '^[a-z0-9_-]{1,32}$' },
          state: { type: 'object' },
          updatedAt: { type: 'string' },
        },
      },
    },
    idleWarningMs: { type: 'integer', minimum: 10, maximum: 86_400_000 },
    idleCloseMs: { type: 'integer', minimum: 10, maximum: 86_400_000 },
  },
} as const;
