/**
 * TURN credentials for a session (issue 14, docs/sessions.md "TURN"): coturn's REST-API shared
 * secret scheme (`use-auth-secret`). The api and coturn share TURN_SECRET; a credential is the
 * username `<expiry unix seconds>:<session id>` and the password base64(HMAC-SHA1(secret,
 * username)). coturn refuses it after the expiry, so a token that leaks is worth little, and the
 * api never stores a TURN password. Issued with the session's token (get_token) to the player and
 * with the start to the host, next to ICE_SERVERS' static entries (STUN).
 */
import { createHmac } from 'node:crypto';
import { envInt, envList, envString, type Env } from '../../shared/env';
import type { IceServer } from '../../../lib/api-types/schemas/sessions';

export interface TurnConfig {
  /** TURN_URLS: comma-separated turn:/turns: URLs of the coturn servers. */
  urls: string[];
  /** TURN_SECRET: coturn's static-auth-secret. */
  secret: string;
  /** TURN_TTL_S: how long a credential works (3600). */
  ttlS: number;
}

/** The TURN settings, or undefined when TURN_URLS is unset (no TURN: loopback and open networks). */
export function loadTurnConfig(env: Env, production: boolean): TurnConfig | undefined {
  const urls = envList(env.TURN_URLS);
  if (!urls || urls.length === 0) return undefined;
  for (const url of urls) {
    if (!/^turns?:[^\s]+$/.test(url)) throw new Error(`TURN_URLS must be turn: or turns: URLs (got "${url}")`);
  }
  const secret = envString(env.TURN_SECRET);
  if (!secret) throw new Error('TURN_SECRET must be set when TURN_URLS is (coturn static-auth-secret)');
  if (production && secret.length < 16) throw new Error('TURN_SECRET must be at least 16 characters when NODE_ENV=production');
  return { urls, secret, ttlS: envInt(env, 'TURN_TTL_S', 3_600, 60, 7 * 86_400) };
}

/** One TURN entry for this session, valid for ttlS from `nowMs`. */
export function turnCredential(turn: TurnConfig, sessionId: string, nowMs = Date.now()): IceServer {
  const username = `${Math.floor(nowMs / 1000) + turn.ttlS}:${sessionId}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.urls, username, credential };
}

/** The ICE servers a session's peers get: the static ones, then a fresh TURN credential when TURN is set. */
export function iceServersFor(config: { iceServers: IceServer[]; turn?: TurnConfig }, sessionId: string, nowMs = Date.now()): IceServer[] {
  return config.turn ? [...config.iceServers, turnCredential(config.turn, sessionId, nowMs)] : config.iceServers;
}
