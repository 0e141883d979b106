/**
 * Tokens the api hands out for a session:
 * - the signal token (HS256 JWT, jose): lets one peer (player or host) of one session open the
 *   signalling WebSocket;
 * - Agora RTC/RTM tokens (agora-token) and the TRTC UserSig (tls-sig-api-v2), when their
 *   credentials are configured; empty strings otherwise.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RtcRole, RtcTokenBuilder, RtmTokenBuilder } from 'agora-token';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { Api as TlsSigApi } from 'tls-sig-api-v2/TLSSigAPIv2';
import type { ProviderTokenFields } from '../../../lib/api-types/schemas/sessions';
import type { SignalRole } from '../../../lib/streaming/signal';
import type { SessionConfig } from './sessionConfig';

export const SIGNAL_TOKEN_AUDIENCE = 'yumecast-signal';
export const SIGNAL_TOKEN_ISSUER = 'yumecast-api';

export interface SignalClaims {
  sessionId: string;
  uid: string;
  role: SignalRole;
}

export class SignalTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(`signal token ${reason}`);
  }
}

export class SignalTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: SignalClaims, ttlSeconds: number): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.uid)
      .setAudience(SIGNAL_TOKEN_AUDIENCE)
      .setIssuer(SIGNAL_TOKEN_ISSUER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  async verify(token: string): Promise<SignalClaims> {
    if (token.length > 4096) throw new SignalTokenError('invalid');
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: SIGNAL_TOKEN_AUDIENCE,
        issuer: SIGNAL_TOKEN_ISSUER,
        requiredClaims: ['exp', 'sub', 'sid', 'role'],
      });
      const { sid, role, sub } = payload as { sid?: unknown; role?: unknown; sub?: unknown };
      if (typeof sid !== 'string' || typeof sub !== 'string' || (role !== 'player' && role !== 'host')) {
        throw new SignalTokenError('invalid');
      }
      return { sessionId: sid, uid: sub, role };
    } catch (error) {
      if (error instanceof SignalTokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new SignalTokenError('expired');
      throw new SignalTokenError('invalid');
    }
  }
}

/**
 * The HS256 key of signal tokens. SIGNAL_SECRET when set (production: required, the same on
 * every api process). Otherwise a random secret created once in SIGNAL_SECRET_FILE and read at
 * every start, so a restarted local api still accepts the tokens the peers of running sessions
 * hold (they reconnect with them).
 */
export async function resolveSignalSecret(config: SessionConfig): Promise<string> {
  if (config.signalSecret) return config.signalSecret;
  const file = config.signalSecretFile;
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    // 'wx': never overwrite a secret another process created meanwhile.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}

/** A non-zero uint32 derived from the inputs (stable for the same inputs). */
export function derivedUint32(...parts: string[]): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  const value = digest.readUInt32BE(0);
  return value === 0 || value === 0xffffffff ? 1 : value;
}

/** The one id a player uses with every provider (Agora RTC uid, RTM user id, TRTC userId). */
export function clientUserId(sessionId: string, uid: string): string {
  return String(derivedUint32('client-user', sessionId, uid));
}

/** TRTC numeric room id of a session (1 .. 2^32-2). */
export function trtcRoomId(sessionId: string): number {
  return derivedUint32('trtc-room', sessionId);
}

/** Agora channel names allow [A-Za-z0-9 -] among others and 64 bytes: the session uuid fits. */
export function agoraChannelName(sessionId: string): string {
  return sessionId;
}

const AGORA_CREDENTIAL = /^[0-9a-fA-F]{32}$/;

/** The Agora and TRTC fields of get_token (the contract's ProviderTokenFields) for one player of one session. */
export function providerTokens(config: SessionConfig, sessionId: string, uid: string): ProviderTokenFields {
  const userId = clientUserId(sessionId, uid);
  const ttl = config.providerTokenTtlS;
  const tokens: ProviderTokenFields = {
    agora_app_id: '',
    agora_channel_name: '',
    agora_rtc_token: '',
    agora_rtm_token: '',
    user_id_for_client: userId,
    trtc_sdk_app_id: '',
    trtc_user_sig_for_client: '',
    trtc_room_id: '',
  };
  const { agoraAppId, agoraAppCertificate, trtcSdkAppId, trtcSecretKey } = config;
  if (agoraAppId && agoraAppCertificate && AGORA_CREDENTIAL.test(agoraAppId) && AGORA_CREDENTIAL.test(agoraAppCertificate)) {
    const channel = agoraChannelName(sessionId);
    tokens.agora_app_id = agoraAppId;
    tokens.agora_channel_name = channel;
    tokens.agora_rtc_token = RtcTokenBuilder.buildTokenWithUid(
      agoraAppId,
      agoraAppCertificate,
      channel,
      Number(userId),
      RtcRole.PUBLISHER,
      ttl,
      ttl,
    );
    tokens.agora_rtm_token = RtmTokenBuilder.buildToken(agoraAppId, agoraAppCertificate, userId, ttl);
  }
  if (trtcSdkAppId && trtcSecretKey) {
    tokens.trtc_sdk_app_id = String(trtcSdkAppId);
    tokens.trtc_room_id = String(trtcRoomId(sessionId));
    tokens.trtc_user_sig_for_client = new TlsSigApi(trtcSdkAppId, trtcSecretKey).genUserSig(userId, ttl);
  }
  return tokens;
}
