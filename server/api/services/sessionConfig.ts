/**
 * Settings of game sessions, the scheduler, the host registry and signalling (docs/sessions.md,
 * section 8). Every value comes from the environment with a local default (read with the shared
 * server/shared/env.ts); tests pass their own (shrunk timings, test credentials) through
 * buildApp's config.
 */
import path from 'node:path';
import type { IceServer } from '../../../lib/api-types/schemas/sessions';
import { loadTurnConfig, type TurnConfig } from './turn';
import type { ProviderName } from '../../../lib/api-types/sessions';
import { envInt, envString, type Env } from '../../shared/env';

export interface SessionConfig {
  /** API_PUBLIC_URL: base URL browsers and hosts reach the api at; undefined = own address. */
  apiPublicUrl?: string;
  /** STREAMING_PROVIDER */
  provider: ProviderName;
  /** ICE_SERVERS (JSON): static entries (STUN, a TURN with fixed credentials). */
  iceServers: IceServer[];
  /** TURN_URLS, TURN_SECRET, TURN_TTL_S: per-session TURN credentials (turn.ts); undefined: none. */
  turn?: TurnConfig;
  /**
   * SESSION_INPUT_ACTIVITY_WRITE_MS: a process writes a session's input time at most once per this
   * window (sessions/inputActivity.ts, docs/scale.md).
   */
  inputActivityWriteMs: number;
  /** SIGNAL_SECRET; undefined = read/create signalSecretFile. */
  signalSecret?: string;
  /** SIGNAL_SECRET_FILE */
  signalSecretFile: string;
  signalTokenTtlS: number;
  signalHostTokenTtlS: number;
  /** HOST_SHARED_SECRET */
  hostSharedSecret: string;
  hostRequestTimeoutMs: number;
  hostHeartbeatTimeoutMs: number;
  agoraAppId?: string;
  agoraAppCertificate?: string;
  trtcSdkAppId?: number;
  trtcSecretKey?: string;
  providerTokenTtlS: number;
  /** GAME_SESSION_LIMIT: live sessions per title (0 = none). */
  gameSessionLimit: number;
  /** HOST_SESSION_LIMIT: caps the capacity a host registers (0 = no cap). */
  hostSessionLimit: number;
  /** SESSION_QUEUE_MAX */
  queueMax: number;
  idleWarningMs: number;
  idleCloseMs: number;
  readyJoinTimeoutMs: number;
  reconnectGraceMs: number;
  startTimeoutMs: number;
  closeTimeoutMs: number;
  queueAbandonMs: number;
  /** A heartbeat's sessionIds only fail sessions allocated longer ago than this (start race). */
  runtimeLostGraceMs: number;
  sweepIntervalMs: number;
  /** Run the background sweeper (tests may drive sweeps by hand). */
  sweeper: boolean;
  /** GAMES_DIR */
  gamesDir: string;
  /** SCREENSHOT_DIR */
  screenshotDir: string;
  /**
   * Where queued sessions go (sessions/placement/, docs/host.md "Fleets"): unset = the built-in
   * PostgreSQL host registry; set (AGONES_ALLOCATOR_URL) = the Agones allocator service.
   */
  agonesAllocator?: AgonesAllocatorConfig;
}

export interface AgonesAllocatorConfig {
  /** AGONES_ALLOCATOR_URL: the allocator service's base URL (https:// with mTLS; http:// only outside production). */
  url: string;
  /** AGONES_ALLOCATOR_CLIENT_CERT / AGONES_ALLOCATOR_CLIENT_KEY: the client certificate and key files (PEM) for mTLS. */
  clientCertFile?: string;
  clientKeyFile?: string;
  /** AGONES_ALLOCATOR_CA_CERT: the CA file (PEM) the allocator's server certificate is checked against. */
  caFile?: string;
  /** AGONES_NAMESPACE: the namespace of the hosts' Fleet (`default`). */
  namespace: string;
  /** AGONES_FLEET: the hosts' Fleet name, matched as the `agones.dev/fleet` label (`yumecast-host`). */
  fleet: string;
  /** AGONES_HOST_PORT_NAME: the GameServer port the agent listens on (`default`, Agones' own default name). */
  portName: string;
  /** AGONES_ALLOCATOR_TIMEOUT_MS: one allocation request's timeout (5000). */
  timeoutMs: number;
}

export const LOCAL_HOST_SHARED_SECRET = 'yumecast-local-host-secret';
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export function loadSessionConfig(env: Env = process.env): SessionConfig {
  const production = env.NODE_ENV === 'production';
  const signalSecret = envString(env.SIGNAL_SECRET);
  const hostSharedSecret = envString(env.HOST_SHARED_SECRET);
  if (production && !signalSecret) throw new Error('SIGNAL_SECRET must be set when NODE_ENV=production');
  if (production && !hostSharedSecret) throw new Error('HOST_SHARED_SECRET must be set when NODE_ENV=production');
  if (signalSecret && signalSecret.length < 16) throw new Error('SIGNAL_SECRET must be at least 16 characters');

  const provider = envString(env.STREAMING_PROVIDER) ?? 'webrtc';
  if (provider !== 'webrtc' && provider !== 'agora' && provider !== 'trtc') {
    throw new Error(`STREAMING_PROVIDER must be webrtc, agora or trtc (got "${provider}")`);
  }
  const apiPublicUrl = envString(env.API_PUBLIC_URL);
  if (apiPublicUrl && !/^https?:\/\/[^/?#]+\/?$/.test(apiPublicUrl)) {
    throw new Error(`API_PUBLIC_URL must be http(s)://host[:port] (got "${apiPublicUrl}")`);
  }
  const trtcSdkAppId = envString(env.TRTC_SDK_APP_ID);
  if (trtcSdkAppId && !/^\d{1,10}$/.test(trtcSdkAppId)) throw new Error('TRTC_SDK_APP_ID must be a number');

  return {
    apiPublicUrl: apiPublicUrl?.replace(/\/$/, ''),
    provider,
    iceServers: parseIceServers(env.ICE_SERVERS),
    turn: loadTurnConfig(env, production),
    inputActivityWriteMs: envInt(env, 'SESSION_INPUT_ACTIVITY_WRITE_MS', 15_000, 0, 600_000),
    signalSecret,
    signalSecretFile: envString(env.SIGNAL_SECRET_FILE) ?? path.join(REPO_ROOT, '.data', 'signal-secret'),
    signalTokenTtlS: envInt(env, 'SIGNAL_TOKEN_TTL_S', 300, 5, 86_400),
    signalHostTokenTtlS: envInt(env, 'SIGNAL_HOST_TOKEN_TTL_S', 43_200, 60, 7 * 86_400),
    hostSharedSecret: hostSharedSecret ?? LOCAL_HOST_SHARED_SECRET,
    hostRequestTimeoutMs: envInt(env, 'HOST_REQUEST_TIMEOUT_MS', 5_000, 100, 120_000),
    hostHeartbeatTimeoutMs: envInt(env, 'HOST_HEARTBEAT_TIMEOUT_MS', 6_000, 100, 600_000),
    agoraAppId: envString(env.AGORA_APP_ID),
    agoraAppCertificate: envString(env.AGORA_APP_CERTIFICATE),
    trtcSdkAppId: trtcSdkAppId ? Number(trtcSdkAppId) : undefined,
    trtcSecretKey: envString(env.TRTC_SECRET_KEY),
    providerTokenTtlS: envInt(env, 'PROVIDER_TOKEN_TTL_S', 3_600, 60, 86_400),
    gameSessionLimit: envInt(env, 'GAME_SESSION_LIMIT', 0, 0, 1_000_000),
    hostSessionLimit: envInt(env, 'HOST_SESSION_LIMIT', 0, 0, 256),
    queueMax: envInt(env, 'SESSION_QUEUE_MAX', 200, 1, 1_000_000),
    idleWarningMs: envInt(env, 'SESSION_IDLE_WARNING_MS', 180_000, 100, 86_400_000),
    idleCloseMs: envInt(env, 'SESSION_IDLE_CLOSE_MS', 210_000, 100, 86_400_000),
    readyJoinTimeoutMs: envInt(env, 'SESSION_READY_JOIN_TIMEOUT_MS', 60_000, 100, 86_400_000),
    reconnectGraceMs: envInt(env, 'SESSION_RECONNECT_GRACE_MS', 60_000, 100, 86_400_000),
    startTimeoutMs: envInt(env, 'SESSION_START_TIMEOUT_MS', 30_000, 100, 86_400_000),
    closeTimeoutMs: envInt(env, 'SESSION_CLOSE_TIMEOUT_MS', 15_000, 100, 86_400_000),
    queueAbandonMs: envInt(env, 'SESSION_QUEUE_ABANDON_MS', 60_000, 100, 86_400_000),
    runtimeLostGraceMs: envInt(env, 'SESSION_RUNTIME_LOST_GRACE_MS', 15_000, 0, 86_400_000),
    sweepIntervalMs: envInt(env, 'SESSION_SWEEP_INTERVAL_MS', 1_000, 20, 600_000),
    sweeper: true,
    gamesDir: envString(env.GAMES_DIR) ?? path.join(REPO_ROOT, 'games'),
    screenshotDir: envString(env.SCREENSHOT_DIR) ?? path.join(REPO_ROOT, '.data', 'screenshots'),
    agonesAllocator: loadAgonesAllocator(env, production),
  };
}

function loadAgonesAllocator(env: Env, production: boolean): AgonesAllocatorConfig | undefined {
  const url = envString(env.AGONES_ALLOCATOR_URL);
  if (!url) return undefined;
  if (!/^https?:\/\/[^/?#]+\/?$/.test(url)) throw new Error(`AGONES_ALLOCATOR_URL must be http(s)://host[:port] (got "${url}")`);
  if (production && !url.startsWith('https://')) throw new Error('AGONES_ALLOCATOR_URL must be https:// (mTLS) when NODE_ENV=production');
  const clientCertFile = envString(env.AGONES_ALLOCATOR_CLIENT_CERT);
  const clientKeyFile = envString(env.AGONES_ALLOCATOR_CLIENT_KEY);
  if (Boolean(clientCertFile) !== Boolean(clientKeyFile)) {
    throw new Error('AGONES_ALLOCATOR_CLIENT_CERT and AGONES_ALLOCATOR_CLIENT_KEY must be set together');
  }
  return {
    url: url.replace(/\/$/, ''),
    clientCertFile,
    clientKeyFile,
    caFile: envString(env.AGONES_ALLOCATOR_CA_CERT),
    namespace: envString(env.AGONES_NAMESPACE) ?? 'default',
    fleet: envString(env.AGONES_FLEET) ?? 'yumecast-host',
    portName: envString(env.AGONES_HOST_PORT_NAME) ?? 'default',
    timeoutMs: envInt(env, 'AGONES_ALLOCATOR_TIMEOUT_MS', 5_000, 100, 120_000),
  };
}

function parseIceServers(raw: string | undefined): IceServer[] {
  const text = envString(raw);
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('ICE_SERVERS must be a JSON array of {urls, username?, credential?}');
  }
  const valid =
    Array.isArray(value) &&
    value.every((server) => {
      if (typeof server !== 'object' || server === null) return false;
      const { urls, username, credential } = server as Record<string, unknown>;
      const urlsOk = typeof urls === 'string' || (Array.isArray(urls) && urls.length > 0 && urls.every((u) => typeof u === 'string'));
      return urlsOk && (username === undefined || typeof username === 'string') && (credential === undefined || typeof credential === 'string');
    });
  if (!valid) throw new Error('ICE_SERVERS must be a JSON array of {urls, username?, credential?}');
  return (value as IceServer[]).map(({ urls, username, credential }) => ({
    urls,
    ...(username !== undefined ? { username } : {}),
    ...(credential !== undefined ? { credential } : {}),
  }));
}
