/**
 * What the agent (Node) and the page-side bridge (server/host/page/bridge.ts, in the runtime's
 * Chromium page) say to each other. The agent calls `window.__yumecastHost.*` with
 * page.evaluate; the bridge calls the agent through the binding `__yumecastHostCall(kind, data)`
 * that the agent exposes on the session's browser context. Types only (and the two binding
 * names): both sides import it, and nothing here pulls a library into the page's bundle.
 */
import type { HostErrorCode, QualityLevel } from '../../lib/streaming/messages';
import type { FrameMode, VideoCodec } from './config';
import type { PrewarmPlan } from './prewarm';
import type { BridgeCounters, BridgeReadyInfo } from './schemas';

/** The bridge's counters and ready info are shown by GET /sessions/:id: their shapes live with that answer. */
export type { BridgeCounters, BridgeReadyInfo };

/** Name of the binding the agent exposes (page → agent). */
export const HOST_CALL_BINDING = '__yumecastHostCall';
/** Name of the binding the VN engine calls with its events (runtime/src/main.ts emit()). */
export const ENGINE_EVENT_BINDING = '__yumecastEvent';

export interface BridgeTimings {
  idleWarningMs: number;
  idleGraceMs: number;
  reconnectGraceMs: number;
  joinTimeoutMs: number;
  noticeMs: number;
  inputActivityMs: number;
  screenshotIntervalMs: number;
}

/** Everything the bridge needs to run one session (agent → page, once). */
export interface BridgeSessionConfig {
  sessionId: string;
  gameId: string;
  /** Base URL of the game's files on the host's static origin (`/games/<id>/`). */
  assetBase: string;
  /** The precompiled story (`/runtime/games/<id>.json`). */
  storyUrl: string;
  /** Resume from this engine state (a save's state JSON), or null for the title screen. */
  resumeState: string | null;
  /** Save slots to list under load (slot ≥ 1). */
  saves: { slot: number; stateJson: string }[];
  quality: QualityLevel;
  signalUrl: string;
  signalToken: string;
  iceServers: RTCIceServer[];
  captureFps: number;
  /** HOST_FRAME_MODE (config.ts): frames on change, or at the engine's draw rate. */
  frameMode: FrameMode;
  /** HOST_VIDEO_CODEC: the codec the publisher puts first. */
  videoCodec: VideoCodec;
  /** HOST_JOIN_DURING_START: signalling and ICE run while the game loads. */
  joinDuringStart: boolean;
  /** HOST_OFFER_AHEAD: the next player's connection made as soon as the signalling is open (empty senders until the stream). */
  offerAhead: boolean;
  /** HOST_BITRATE_FLOOR: the sender's bandwidth estimate starts at the quality's most and keeps a floor. */
  bitrateFloor: boolean;
  /** HOST_ESTIMATE_HEADROOM: the estimate's start and ceiling over the encoder's maxBitrate (null: the publisher's default). */
  estimateHeadroom: number | null;
  /** HOST_AUDIO_PTIME_MS: the Opus packet length the publisher asks for (0: the browser's own). */
  audioPtimeMs: number;
  rate: { perSecond: number; burst: number };
  timings: BridgeTimings;
  /** A native title (issue 15): the page plays the agent's stream of it (page/native-engine.ts), not the VN engine. */
  native?: { streamUrl: string } | null;
}

/** Why the bridge asks the agent to end the session (beyond the protocol's bye reasons). */
export type BridgeEndReason = 'idle_timeout' | 'reconnect_timeout' | 'join_timeout' | 'signal_closed' | 'runtime_error';

export type HostCall =
  | { kind: 'screenshot'; requestId: string }
  | { kind: 'connection'; state: BridgeCounters['connection'] }
  | { kind: 'input-activity' }
  | { kind: 'end'; reason: BridgeEndReason }
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; message: string };

export type ScreenshotCallResult = { screenshotId: string } | { error: HostErrorCode };

export interface PrewarmResult {
  ms: number;
  fontsOk: boolean;
  loaded: number;
  failed: number;
  /** The plan's titles prepared in the page (yumecast.prepare's answers, in the plan's order). */
  prepared: { gameId: string; ok: boolean; ms: number }[];
}

/** The bridge's API on the page: window.__yumecastHost. */
export interface BridgeApi {
  version: 1;
  /** Loads fonts and game files ahead of any session (see server/host/prewarm.ts). */
  prewarm(plan: PrewarmPlan): Promise<PrewarmResult>;
  begin(cfg: BridgeSessionConfig): Promise<BridgeReadyInfo>;
  /** Sends `bye` (when a player is connected) and stops publishing. */
  end(reason: string): Promise<void>;
  counters(): BridgeCounters;
}
