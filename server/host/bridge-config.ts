/**
 * What a session's bridge gets when it begins (server/host/page/bridge.ts begin()): the api's
 * start request (ids, saves, quality, signalling, idle times) plus this host's settings
 * (capture, codec, publisher options, rate limits, timings). One pure function, so the session
 * manager (./sessions.ts) only runs sessions.
 */
import type { StartSessionBody } from '../shared/host-contract';
import type { BridgeSessionConfig } from './bridge-protocol';
import type { HostConfig } from './config';
import { gameUrls } from './prewarm';

/** The request plus this host's settings. Numeric save slots only (the engine's slots); the idle grace from the api's close time when it gives one. */
export function bridgeSessionConfig(config: HostConfig, req: StartSessionBody): BridgeSessionConfig {
  const t = config.timings;
  const idleWarningMs = req.idleWarningMs ?? t.idleWarningMs;
  const idleGraceMs = req.idleCloseMs !== undefined && req.idleCloseMs > idleWarningMs ? req.idleCloseMs - idleWarningMs : t.idleGraceMs;
  const saves: BridgeSessionConfig['saves'] = [];
  for (const sv of req.saves ?? []) {
    const slot = /^\d{1,3}$/.test(sv.slot) ? Number(sv.slot) : NaN;
    if (slot >= 1) saves.push({ slot, stateJson: JSON.stringify(sv.state) });
  }
  return {
    sessionId: req.sessionId,
    gameId: req.gameId,
    ...gameUrls(req.gameId),
    resumeState: req.resumeState ? JSON.stringify(req.resumeState) : null,
    saves,
    quality: req.quality ?? 'high',
    signalUrl: req.signalUrl,
    signalToken: req.signalToken,
    iceServers: req.iceServers ?? [],
    captureFps: config.captureFps,
    frameMode: config.frameMode,
    videoCodec: config.videoCodec,
    bitrateFloor: config.bitrateFloor,
    estimateHeadroom: config.estimateHeadroom,
    audioPtimeMs: config.audioPtimeMs,
    joinDuringStart: config.joinDuringStart,
    offerAhead: config.offerAhead,
    rate: config.rate,
    timings: {
      idleWarningMs,
      idleGraceMs,
      reconnectGraceMs: t.reconnectGraceMs,
      joinTimeoutMs: t.joinTimeoutMs,
      noticeMs: t.noticeMs,
      inputActivityMs: t.inputActivityMs,
      screenshotIntervalMs: t.screenshotIntervalMs,
    },
  };
}
