/**
 * SDK-free pieces the two cloud providers (agora, trtc) share: the credential check that runs
 * before any SDK loads, the timeout around calls that never settle offline, the mapping of the
 * SDKs' connection states to ours, and the encoder settings per quality level. Nothing here
 * imports an SDK, so lib/streaming/index.ts may import it statically.
 */
import type { QualityLevel } from '../messages';
import { QUALITY_PROFILES, type AgoraToken, type ConnectionState, type TrtcToken } from '../types';

export type CloudProvider = 'agora' | 'trtc';

/**
 * Agora client settings of both peers: the 'rtc' (communication) profile, for one host and one
 * player who both send, with the lowest latency and no audience roles to manage.
 */
export const AGORA_CLIENT_CONFIG = { mode: 'rtc', codec: 'vp8' } as const;

/** The token has no usable credentials for the provider (the api sends "" when unconfigured). */
export class MissingCredentialsError extends Error {
  constructor(
    readonly provider: CloudProvider,
    readonly fields: readonly string[],
  ) {
    super(`streaming credentials missing or invalid for ${provider}: ${fields.join(', ')}`);
    this.name = 'MissingCredentialsError';
  }
}

/** An SDK call that did not settle in time (Agora join/RTM login never settle without a network). */
export class ProviderTimeoutError extends Error {
  constructor(readonly operation: string) {
    super(`streaming provider call timed out: ${operation}`);
    this.name = 'ProviderTimeoutError';
  }
}

const UINT32 = /^[1-9][0-9]{0,9}$/;
const isUint32 = (s: string): boolean => UINT32.test(s) && Number(s) <= 0xffffffff;

/** A cloud provider's token (the api sends "" for every field of a provider it cannot serve). */
export type CloudToken = AgoraToken | TrtcToken;

const filled = (s: unknown): boolean => typeof s === 'string' && s.length > 0;
const uint32 = (s: unknown): boolean => typeof s === 'string' && isUint32(s);

/**
 * The names of the fields `provider` needs that the token lacks or has malformed. A token of
 * another provider lacks them all (read loosely: a token from the wire is never trusted).
 */
export function missingCredentials(provider: 'agora', token: AgoraToken): string[];
export function missingCredentials(provider: 'trtc', token: TrtcToken): string[];
export function missingCredentials(provider: CloudProvider, token: CloudToken): string[];
export function missingCredentials(provider: CloudProvider, token: CloudToken): string[] {
  const missing: string[] = [];
  const need = (name: string, ok: boolean) => {
    if (!ok) missing.push(name);
  };
  if (provider === 'agora') {
    const t: Partial<AgoraToken> = token.provider === 'agora' ? token : {};
    need('appId', filled(t.appId));
    need('channelName', filled(t.channelName));
    need('rtcToken', filled(t.rtcToken));
    need('rtmToken', filled(t.rtmToken));
    // The RTC token is built for a numeric uid (buildTokenWithUid): the id must be one.
    need('rtmUid', uint32(t.rtmUid));
  } else {
    const t: Partial<TrtcToken['trtc']> = (token.provider === 'trtc' && token.trtc) || {};
    need('trtc.sdkAppId', uint32(t.sdkAppId));
    need('trtc.userId', filled(t.userId));
    need('trtc.userSig', filled(t.userSig));
    need('trtc.roomId', uint32(t.roomId));
  }
  return missing;
}

/** Throws MissingCredentialsError unless the token carries everything `provider` needs. */
export function requireCredentials(provider: 'agora', token: AgoraToken): void;
export function requireCredentials(provider: 'trtc', token: TrtcToken): void;
export function requireCredentials(provider: CloudProvider, token: CloudToken): void;
export function requireCredentials(provider: CloudProvider, token: CloudToken): void {
  const missing = missingCredentials(provider, token);
  if (missing.length > 0) throw new MissingCredentialsError(provider, missing);
}

/** How long a join or login may take before we give up and clean up. */
export const PROVIDER_CALL_TIMEOUT_MS = 15_000;

export function withTimeout<T>(promise: Promise<T>, operation: string, ms = PROVIDER_CALL_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderTimeoutError(operation)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The connection states both SDKs report (Agora adds DISCONNECTING). */
export type SdkConnectionState = 'DISCONNECTED' | 'CONNECTING' | 'RECONNECTING' | 'CONNECTED' | 'DISCONNECTING';

/**
 * Our state for an SDK state. A DISCONNECTED that we did not ask for (token expired, kicked,
 * network gone for good) is 'disconnected', which makes the play page join again with a fresh
 * token; one we asked for (leave) is 'closed'.
 */
export function mapSdkState(state: SdkConnectionState, leaving: boolean): ConnectionState {
  switch (state) {
    case 'CONNECTED':
      return 'connected';
    case 'CONNECTING':
      return 'connecting';
    case 'RECONNECTING':
      return 'reconnecting';
    case 'DISCONNECTING':
    case 'DISCONNECTED':
      return leaving ? 'closed' : 'disconnected';
  }
}

/** Worst first: the combined state of several links is the worst of them. */
const SEVERITY: readonly ConnectionState[] = ['closed', 'failed', 'disconnected', 'reconnecting', 'connecting', 'connected'];

/**
 * Media and messages travel on separate links (Agora RTC + RTM): the session is only
 * 'connected' when every link is, and reports each change of the combined state once.
 */
export class LinkStates {
  private readonly links = new Map<string, ConnectionState>();
  /** Every link starts connecting, which the adapters announce themselves when they begin. */
  private last: ConnectionState = 'connecting';

  constructor(
    private readonly emit: (state: ConnectionState) => void,
    linkNames: readonly string[],
  ) {
    for (const name of linkNames) this.links.set(name, 'connecting');
  }

  set(link: string, state: ConnectionState): void {
    this.links.set(link, state);
    const values = [...this.links.values()];
    const combined = SEVERITY.find((s) => values.includes(s)) ?? 'connecting';
    if (combined === this.last) return;
    this.last = combined;
    this.emit(combined);
  }
}

/** The encoder settings of a quality level, from the same QUALITY_PROFILES the webrtc path uses. */
export interface CloudEncoderConfig {
  /** kbps (both SDKs take kbps). */
  bitrateMax: number;
  frameRate: number;
  scaleResolutionDownBy: number;
  /** Sent size for a source of the given size (TRTC takes sizes, not a scale factor). */
  width?: number;
  height?: number;
}

export function encoderConfig(level: QualityLevel, source?: { width?: number; height?: number }): CloudEncoderConfig {
  const p = QUALITY_PROFILES[level];
  const config: CloudEncoderConfig = {
    bitrateMax: Math.round(p.maxBitrate / 1000),
    frameRate: p.maxFramerate,
    scaleResolutionDownBy: p.scaleResolutionDownBy,
  };
  if (source?.width && source.height) {
    // Even sizes: H.264 encoders (TRTC) refuse odd ones.
    config.width = 2 * Math.round(source.width / p.scaleResolutionDownBy / 2);
    config.height = 2 * Math.round(source.height / p.scaleResolutionDownBy / 2);
  }
  return config;
}

/** Runs a cleanup step and ignores its failure: leaving must get through every step. */
export async function quietly(step: () => Promise<unknown> | unknown): Promise<void> {
  try {
    await step();
  } catch {
    // already gone: nothing left to clean
  }
}
