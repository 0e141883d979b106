/**
 * Configuration of the game-host agent. Every value comes from the environment with a local
 * default (loopback, capacity 2, one warm runtime), so `npx tsx server/host/main.ts` runs on a
 * fresh clone; tests pass their own values to buildHostAgent instead. docs/host.md lists them.
 * Values are read with the servers' shared readers (server/shared/env.ts): blank means unset, a bad
 * number stops the start naming the variable.
 */
import os from 'node:os';
import { VIDEO_CODECS, type VideoCodec } from '../../lib/streaming/types';
import type { FrameMode } from '../../runtime/src/types';
import path from 'node:path';
import { CHROMIUM_PATH } from '../shared/chromium';
import { envInt, envList, envString, type Env } from '../shared/env';
import { metricsToken } from '../shared/metrics';
import { sentryDsn } from '../shared/sentry';
import { DEFAULT_RATE_LIMITS, loadRateLimits, loadServerTimeouts, type RateLimits, type ServerTimeouts } from '../shared/http-limits';
import { loadNativeConfig, type NativeConfig } from './native/config';
import { WARM_NICE } from './priority';

export type { FrameMode, VideoCodec };
const FRAME_MODES: readonly FrameMode[] = ['change', 'steady'];
/** HOST_AUDIO_PTIME_MS: the Opus packet lengths libwebrtc makes (0 = the browser's own, 20). */
const OPUS_PTIMES = ['0', '10', '20', '40', '60'] as const;

/** A value of `allowed`, or `def` when unset; anything else stops the start naming the variable. */
/** HOST_ESTIMATE_HEADROOM: a number from 1 to 10, or unset (null). */
function envHeadroom(raw: string | undefined): number | null {
  const v = envString(raw);
  if (v === undefined) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 1 || n > 10) throw new Error('HOST_ESTIMATE_HEADROOM must be a number from 1 to 10');
  return n;
}

function envChoice<T extends string>(env: Env, name: string, def: T, allowed: readonly T[]): T {
  const v = envString(env[name]);
  if (v === undefined) return def;
  if (!(allowed as readonly string[]).includes(v)) throw new Error(`${name} must be one of ${allowed.join(', ')}`);
  return v as T;
}

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface HostTimings {
  /**
   * HOST_IDLE_WARNING_MS: no input for this long → `idle-warning` (DESIGN §4: 3 min). The api's
   * start request (idleWarningMs, idleCloseMs) overrides this and the grace per session.
   */
  idleWarningMs: number;
  /** HOST_IDLE_GRACE_MS: after the warning, close with `bye idle_timeout` unless input arrives (30 s). */
  idleGraceMs: number;
  /** HOST_RECONNECT_GRACE_MS: the player's peer left; keep the session this long for a reconnect (60 s). */
  reconnectGraceMs: number;
  /** HOST_JOIN_TIMEOUT_MS: a session whose player never connects is closed after this long. */
  joinTimeoutMs: number;
  /** HOST_HEARTBEAT_MS: heartbeat period to the api (~2 s). */
  heartbeatMs: number;
  /** HOST_INPUT_ACTIVITY_MS: input activity is forwarded to the api at most this often. */
  inputActivityMs: number;
  /** HOST_NOTICE_MS: at most one `error rate_limited` / `error bad_message` per this period. */
  noticeMs: number;
  /** HOST_SCREENSHOT_INTERVAL_MS: smallest gap between two screenshots of one session. */
  screenshotIntervalMs: number;
  /** HOST_LAUNCH_TIMEOUT_MS: a Chromium launch + runtime page load must finish within this. */
  launchTimeoutMs: number;
  /** HOST_START_TIMEOUT_MS: yumecast.start() (loading the game) must finish within this. */
  startTimeoutMs: number;
  /** HOST_CLOSE_TIMEOUT_MS: how long browser.close() may take before the tree is SIGKILLed. */
  closeTimeoutMs: number;
  /** HOST_REFILL_DELAY_MS: wait after a warm runtime is taken before launching its replacement. */
  refillDelayMs: number;
  /** HOST_RECONCILE_GRACE_MS: a session the api's heartbeat answer omits is stopped once older than this (10 s). */
  reconcileGraceMs: number;
}

export interface HostConfig {
  /** HOST_ID: this host's id in the api's registry. Default `<hostname>-<port>`. */
  hostId: string;
  /** HOST_AGENT_HOST: interface of the api-facing listener (loopback by default). */
  host: string;
  /** HOST_AGENT_PORT (8090; 0 = any free port). */
  port: number;
  /** HOST_PUBLIC_URL: the URL the api reaches this agent at. Default http://<host>:<port>. */
  publicUrl?: string;
  /** API_URL (or HOST_API_URL): the api, for registration, heartbeats and reports. */
  apiUrl: string;
  /** HOST_SHARED_SECRET: sent to the api and required from it (header x-host-secret; docs/sessions.md §4). */
  sharedSecret: string;
  /** HOST_REGISTER=0 turns registration/heartbeats off (agent-only tests, the bench). */
  register: boolean;
  /** HOST_CAPACITY: most runtimes (sessions + warm) at once. */
  capacity: number;
  /** HOST_WARM_POOL: runtimes kept warm (browser up, runtime page loaded). */
  warm: number;
  /** CHROMIUM_PATH: the browser (Debian chromium). */
  chromiumPath: string;
  /** HOST_RUNTIME_DIR: the built VN runtime (runtime/dist). */
  runtimeDir: string;
  /** HOST_GAMES_DIRS: comma-separated folders holding one folder per game (games/). */
  gamesDirs: string[];
  /** HOST_PAGE_PORT: loopback port of the pages' static origin (0 = any). */
  pagePort: number;
  /** HOST_TMP_DIR: where each runtime's fresh user-data-dir is made. */
  tmpDir: string;
  /** HOST_RATE_PER_S / HOST_RATE_BURST: the input token bucket of each session. */
  rate: { perSecond: number; burst: number };
  /** HOST_PREWARM=0: warm runtimes do not preload fonts or prepare titles (slower starts). */
  prewarm: boolean;
  /**
   * HOST_PREWARM_FILES=1: warm runtimes also load every title's files into their HTTP cache and
   * decode its images, as before issue 11's latency round (server/host/prewarm.ts); default: fonts
   * and the prepared titles only.
   */
  prewarmFiles: boolean;
  /**
   * HOST_PREPARE_GAMES: the titles warm runtimes prepare (yumecast.prepare), most started first,
   * comma-separated game ids (at most PREPARE_MAX are used); unset = the prewarm plan's first ones.
   */
  prepareGames: string[] | null;
  /** HOST_CAPTURE_FPS: the most frames per second the captured canvas sends (30). */
  captureFps: number;
  /**
   * HOST_FRAME_MODE: `change` (default) sends a video frame only when the engine draws a changed
   * picture (captureStream(0) + requestFrame, plus refresh frames); `steady` captures at the
   * engine's draw rate as before issue 11 (kept for the benches' before/after and as a fallback).
   */
  frameMode: FrameMode;
  /**
   * HOST_RUNTIME_KIND: what runs a web-engine title's session. `page` (default): a Chromium page
   * with the engine and the bridge (runtime.ts). `light`: the engine in a Node process with a
   * GStreamer sender, no Chromium (light/light-runtime.ts; docs/light-runtime.md). A native
   * title always plays in a page.
   */
  runtimeKind: RuntimeKind;
  /**
   * The light runtime: HOST_SESSIONS_PER_WORKER (how many runtimes share one worker process,
   * each its own engine and sender; default 3: memory against latency, docs/performance.md
   * "twentieth round"), its sender's
   * HOST_LIGHT_PYTHON (Debian's /usr/bin/python3, which has python3-gi) and HOST_LIGHT_CPU_USED
   * (VP8's speed, −16…16; default −6, the page encoder's).
   */
  light: { perWorker: number; python: string; cpuUsed: number };
  /**
   * HOST_SESSIONS_PER_BROWSER: how many runtimes (one browser context each) share one Chromium.
   * 1 = a whole browser per runtime (the model before issue 11). docs/host.md "Runtime model".
   */
  sessionsPerBrowser: number;
  /** HOST_VIDEO_CODEC: the codec the publisher prefers (vp8 | vp9 | h264 | av1); docs/performance.md. */
  videoCodec: VideoCodec;
  /**
   * HOST_JOIN_DURING_START=0 turns off overlapping the player's join with the game's start (the
   * publisher and signalling then start after yumecast.start, as before issue 11).
   */
  joinDuringStart: boolean;
  /**
   * HOST_OFFER_AHEAD=0: the next player's connection is made ahead only once the engine's stream
   * is in (as before issue 11's eighth round). Default 1: as soon as the signalling is open, with
   * empty senders while the game starts, so a player who joins during the start gets an offer
   * with its ICE candidates at once (lib/streaming/webrtc/publisher.ts prepareAhead).
   */
  offerAhead: boolean;
  /**
   * HOST_BITRATE_FLOOR=0 turns off bounding the sender's bandwidth estimate (start at the
   * quality's maxBitrate, floor at its minBitrate: lib/streaming/types.ts QUALITY_PROFILES).
   * Without it, frames only on change send too little for the estimate to grow, and the encoder
   * drops changed frames and the pacer holds them back (docs/streaming.md).
   */
  bitrateFloor: boolean;
  /**
   * HOST_ESTIMATE_HEADROOM: with the bitrate floor, the bandwidth estimate starts at and may grow
   * to this multiple of the quality's maxBitrate while the encoder stays capped at maxBitrate, so
   * a frame that changes the whole screen is paced out faster (lib/streaming/types.ts
   * ESTIMATE_HEADROOM, 2.5); 1 = as before issue 11's latency round. Unset: the publisher's.
   */
  estimateHeadroom: number | null;
  /**
   * HOST_ART_BUDGET_MB: the megabytes of art rasters a session's page keeps (runtime/src/art.ts;
   * unset = the runtime's own budget, 0 = every raster kept, as before issue 11).
   */
  artBudgetMb: number | null;
  /**
   * HOST_MUSIC_LOOPS: how a session's page holds its music loop: `buffer` (default: a decoded float
   * AudioBuffer) or `pcm` (the file's 16-bit samples in an AudioWorklet: less memory, more CPU; the
   * page's `?loops=pcm`). runtime/src/audio/loops.ts.
   */
  musicLoops: 'pcm' | 'buffer';
  /**
   * HOST_START_FONTS: what a start that opens on the title screen waits for before its first
   * frame: `first` (default: the title screen's glyphs; the story's load after ready) or `all`
   * (every glyph of the story, as before issue 11's cold-start round; the page's `?fonts=all`).
   * runtime/src/main.ts.
   */
  startFonts: 'first' | 'all';
  /**
   * HOST_SFX_FILES=0: every sound effect synthesised live in the session (the page's `?sfx=live`), as
   * before issue 11; default on: played from the runtime build's rendered files (runtime/dist/sfx/),
   * live only for an effect without one. runtime/src/audio/sfx-player.ts.
   */
  sfxFiles: boolean;
  /**
   * HOST_PAINT_SCREEN=1: the host page shows its canvas, so Chromium paints and composites every
   * frame nobody looks at (as before issue 11's seventh round); default 0: the canvas is hidden
   * from layout, its captured track and screenshots unchanged (server/host/page-paths.ts).
   */
  paintScreen: boolean;
  /**
   * HOST_AUDIO_DEVICE=1: a session's AudioContext also plays to the machine's output device (the
   * browser's audio service, with no one listening), as before issue 11's seventh round; default 0:
   * the sound goes only to the stream (the page's `?sink=none`, runtime/src/audio/engine.ts).
   */
  audioDevice: boolean;
  /**
   * HOST_AUDIO_SENDS=eager: a session's master chain builds its reverb (a convolver: ~27 MB of its
   * renderer) and delay with its AudioContext, as before issue 11's twelfth round; default `lazy`:
   * when a live sound first needs them (a score or an effect the build did not render), so a
   * session playing the build's loops and effects never builds them (the page's `?sends=eager`,
   * runtime/src/audio/chain.ts).
   */
  audioSends: 'lazy' | 'eager';
  /**
   * HOST_CAPTURE: how a session's video track gets its frames in the `change` frame mode: `frame`
   * (default: each draw written as a VideoFrame of the canvas to a track generator) or `canvas`
   * (the canvas's captureStream(0) + requestFrame, as before issue 11's seventh round; the page's
   * `?capture=canvas`). runtime/src/frames.ts.
   */
  capture: 'frame' | 'canvas';
  /**
   * HOST_AUDIO_PTIME_MS: the length of the Opus packets a session sends: 10, 20, 40 or 60 ms (the
   * lengths libwebrtc makes; anything else stops the start). Default 60: a third of the packets of
   * the browser's 20 ms, for 40 ms more audio delay; 0 = the browser's own, as before issue 11's
   * seventh round. lib/streaming/webrtc/publisher.ts withAudioPtime.
   */
  audioPtimeMs: number;
  /**
   * HOST_ZERO_PLAYOUT_DELAY=0 turns off the playout delay 0 that every sent video frame carries
   * (server/host/browser-flags.ts ZERO_PLAYOUT_DELAY_FLAG): the player's jitter buffer then decides
   * when to show each frame, as before issue 11's latency round.
   */
  zeroPlayoutDelay: boolean;
  /**
   * HOST_WARM_NICE: the nice value (0–19) a runtime warmed for the pool runs at until a session
   * takes it, so warming yields the CPU to the sessions being played (server/host/priority.ts);
   * 0 = not lowered (as before issue 11's latency round). Needs CAP_SYS_NICE to raise it back,
   * else nothing is lowered.
   */
  warmNice: number;
  /**
   * HOST_SIGNAL_URLS: the api's signalling endpoints (ws URLs, comma-separated) that a runtime's
   * page opens natively rather than through the agent (server/host/runtime-guards.ts wsRoutePattern);
   * default the api's own, `<API_URL as ws>/v1/signal`; `none`: every session's signalling relayed
   * through the agent (as before issue 11's latency round). A session whose signal URL is not one
   * of these still works, relayed through the agent.
   */
  signalUrls: string[];
  /**
   * HOST_FLEET: the fleet this host belongs to (server/host/fleet/, docs/host.md "Fleets"): `api`
   * (default: register + heartbeat with the api's PostgreSQL registry) or `agones` (also speak the
   * Agones SDK to the GameServer's sidecar: Ready, Health, Allocated, the `sessions` counter,
   * Shutdown). AGONES_SDK_GRPC_PORT (9357, set by Agones) and HOST_AGONES_HEALTH_MS (2000) tune it.
   */
  fleet: 'api' | 'agones';
  agones: { sdkPort: number; healthMs: number };
  /** The native runtime kind (Ren'Py under Xvfb, HOST_NATIVE_*): native/config.ts. */
  native: NativeConfig;
  timings: HostTimings;
  /** LOG_LEVEL */
  logLevel: string;
  /** METRICS_TOKEN: with it, /metrics needs `Authorization: Bearer <token>`; without, loopback only. */
  metricsToken?: string;
  /** SENTRY_DSN (else NEXT_PUBLIC_SENTRY_DSN): errors reported to Sentry; unset: off. */
  sentryDsn?: string;
  /**
   * HOST_HTTP_RATE_LIMIT_*: requests per window per address on the agent's routes: the public
   * budget on /health and other routes without the secret, the internal one on the api's
   * secret routes (server/shared/http-limits.ts, docs/api.md "Rate limits and timeouts").
   */
  httpRateLimit: RateLimits;
  /** HOST_HEADERS_TIMEOUT_MS, HOST_REQUEST_TIMEOUT_MS, HOST_TIMEOUT_CHECK_MS: slow senders are cut off. */
  httpTimeouts: ServerTimeouts;
}

/** The agent's public routes are for monitors: a little more room than the api's (tests poll /health). */
export const HOST_RATE_LIMITS: RateLimits = { ...DEFAULT_RATE_LIMITS, publicMax: 1_200 };

export const DEFAULT_TIMINGS: HostTimings = {
  idleWarningMs: 180_000,
  idleGraceMs: 30_000,
  reconnectGraceMs: 60_000,
  joinTimeoutMs: 60_000,
  heartbeatMs: 2_000,
  inputActivityMs: 5_000,
  noticeMs: 2_000,
  screenshotIntervalMs: 1_000,
  launchTimeoutMs: 30_000,
  startTimeoutMs: 20_000,
  closeTimeoutMs: 2_000,
  refillDelayMs: 1_500,
  reconcileGraceMs: 10_000,
};

/** The runtime kinds a host can run (HOST_RUNTIME_KIND) for the web engine's titles (session-runtime.ts). */
export const RUNTIME_KINDS = ['page', 'light'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** A dev-only secret so a fresh clone runs; loadHostConfig refuses it in production. */
export const DEV_SHARED_SECRET = 'yumecast-local-host-secret';

export function loadHostConfig(env: Env = process.env): HostConfig {
  const port = envInt(env, 'HOST_AGENT_PORT', 8090, 0, 65535);
  const sharedSecret = envString(env.HOST_SHARED_SECRET) ?? DEV_SHARED_SECRET;
  if (env.NODE_ENV === 'production' && sharedSecret === DEV_SHARED_SECRET) {
    throw new Error('HOST_SHARED_SECRET must be set in production');
  }
  const capacity = envInt(env, 'HOST_CAPACITY', 2, 1, 256);
  const apiUrl = (envString(env.API_URL) ?? envString(env.HOST_API_URL) ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  return {
    hostId: envString(env.HOST_ID) ?? `${os.hostname()}-${port}`,
    host: envString(env.HOST_AGENT_HOST) ?? '127.0.0.1',
    port,
    publicUrl: envString(env.HOST_PUBLIC_URL),
    apiUrl,
    sharedSecret,
    register: envString(env.HOST_REGISTER) !== '0',
    capacity,
    warm: Math.min(capacity, envInt(env, 'HOST_WARM_POOL', 1, 0, 256)),
    chromiumPath: envString(env.CHROMIUM_PATH) ?? CHROMIUM_PATH,
    runtimeDir: path.resolve(envString(env.HOST_RUNTIME_DIR) ?? path.join(REPO_ROOT, 'runtime', 'dist')),
    gamesDirs: (envList(env.HOST_GAMES_DIRS) ?? [path.join(REPO_ROOT, 'games')]).map((d) =>
      path.resolve(REPO_ROOT, d),
    ),
    pagePort: envInt(env, 'HOST_PAGE_PORT', 0, 0, 65535),
    tmpDir: path.resolve(envString(env.HOST_TMP_DIR) ?? os.tmpdir()),
    rate: { perSecond: envInt(env, 'HOST_RATE_PER_S', 60, 1, 100_000), burst: envInt(env, 'HOST_RATE_BURST', 120, 1, 100_000) },
    prewarm: envString(env.HOST_PREWARM) !== '0',
    prewarmFiles: envString(env.HOST_PREWARM_FILES) === '1',
    prepareGames: envList(env.HOST_PREPARE_GAMES) ?? null,
    captureFps: envInt(env, 'HOST_CAPTURE_FPS', 30, 1, 60),
    frameMode: envChoice(env, 'HOST_FRAME_MODE', 'change', FRAME_MODES),
    runtimeKind: envChoice(env, 'HOST_RUNTIME_KIND', 'page', RUNTIME_KINDS),
    light: {
      perWorker: envInt(env, 'HOST_SESSIONS_PER_WORKER', 3, 1, 64),
      python: envString(env.HOST_LIGHT_PYTHON) ?? '/usr/bin/python3',
      cpuUsed: envInt(env, 'HOST_LIGHT_CPU_USED', -6, -16, 16),
    },
    sessionsPerBrowser: envInt(env, 'HOST_SESSIONS_PER_BROWSER', 5, 1, 64),
    videoCodec: envChoice(env, 'HOST_VIDEO_CODEC', 'vp8', VIDEO_CODECS),
    joinDuringStart: envString(env.HOST_JOIN_DURING_START) !== '0',
    offerAhead: envString(env.HOST_OFFER_AHEAD) !== '0',
    bitrateFloor: envString(env.HOST_BITRATE_FLOOR) !== '0',
    zeroPlayoutDelay: envString(env.HOST_ZERO_PLAYOUT_DELAY) !== '0',
    warmNice: envInt(env, 'HOST_WARM_NICE', WARM_NICE, 0, 19),
    signalUrls: envString(env.HOST_SIGNAL_URLS) === 'none' ? [] : (envList(env.HOST_SIGNAL_URLS) ?? [`${apiUrl.replace(/^http/, 'ws')}/v1/signal`]),
    estimateHeadroom: envHeadroom(env.HOST_ESTIMATE_HEADROOM),
    artBudgetMb: envString(env.HOST_ART_BUDGET_MB) === undefined ? null : envInt(env, 'HOST_ART_BUDGET_MB', 0, 0, 4096),
    musicLoops: envChoice(env, 'HOST_MUSIC_LOOPS', 'buffer', ['buffer', 'pcm'] as const),
    startFonts: envChoice(env, 'HOST_START_FONTS', 'first', ['first', 'all'] as const),
    sfxFiles: envString(env.HOST_SFX_FILES) !== '0',
    paintScreen: envString(env.HOST_PAINT_SCREEN) === '1',
    audioDevice: envString(env.HOST_AUDIO_DEVICE) === '1',
    audioSends: envChoice(env, 'HOST_AUDIO_SENDS', 'lazy', ['lazy', 'eager'] as const),
    capture: envChoice(env, 'HOST_CAPTURE', 'frame', ['frame', 'canvas'] as const),
    audioPtimeMs: Number(envChoice(env, 'HOST_AUDIO_PTIME_MS', '60', OPUS_PTIMES)),
    fleet: envChoice(env, 'HOST_FLEET', 'api', ['api', 'agones'] as const),
    agones: { sdkPort: envInt(env, 'AGONES_SDK_GRPC_PORT', 9357, 1, 65535), healthMs: envInt(env, 'HOST_AGONES_HEALTH_MS', 2000, 100, 60_000) },
    native: loadNativeConfig(env),
    timings: {
      idleWarningMs: envInt(env, 'HOST_IDLE_WARNING_MS', DEFAULT_TIMINGS.idleWarningMs, 10, 86_400_000),
      idleGraceMs: envInt(env, 'HOST_IDLE_GRACE_MS', DEFAULT_TIMINGS.idleGraceMs, 10, 86_400_000),
      reconnectGraceMs: envInt(env, 'HOST_RECONNECT_GRACE_MS', DEFAULT_TIMINGS.reconnectGraceMs, 10, 86_400_000),
      joinTimeoutMs: envInt(env, 'HOST_JOIN_TIMEOUT_MS', DEFAULT_TIMINGS.joinTimeoutMs, 10, 86_400_000),
      heartbeatMs: envInt(env, 'HOST_HEARTBEAT_MS', DEFAULT_TIMINGS.heartbeatMs, 50, 600_000),
      inputActivityMs: envInt(env, 'HOST_INPUT_ACTIVITY_MS', DEFAULT_TIMINGS.inputActivityMs, 0, 600_000),
      noticeMs: envInt(env, 'HOST_NOTICE_MS', DEFAULT_TIMINGS.noticeMs, 0, 600_000),
      screenshotIntervalMs: envInt(env, 'HOST_SCREENSHOT_INTERVAL_MS', DEFAULT_TIMINGS.screenshotIntervalMs, 0, 600_000),
      launchTimeoutMs: envInt(env, 'HOST_LAUNCH_TIMEOUT_MS', DEFAULT_TIMINGS.launchTimeoutMs, 1000, 600_000),
      startTimeoutMs: envInt(env, 'HOST_START_TIMEOUT_MS', DEFAULT_TIMINGS.startTimeoutMs, 500, 600_000),
      closeTimeoutMs: envInt(env, 'HOST_CLOSE_TIMEOUT_MS', DEFAULT_TIMINGS.closeTimeoutMs, 100, 60_000),
      refillDelayMs: envInt(env, 'HOST_REFILL_DELAY_MS', DEFAULT_TIMINGS.refillDelayMs, 0, 600_000),
      reconcileGraceMs: envInt(env, 'HOST_RECONCILE_GRACE_MS', DEFAULT_TIMINGS.reconcileGraceMs, 0, 600_000),
    },
    logLevel: envString(env.LOG_LEVEL) ?? 'info',
    metricsToken: metricsToken(env),
    sentryDsn: sentryDsn(env),
    httpRateLimit: loadRateLimits(env, 'HOST_HTTP_RATE_LIMIT', HOST_RATE_LIMITS),
    httpTimeouts: loadServerTimeouts(env, 'HOST'),
  };
}
