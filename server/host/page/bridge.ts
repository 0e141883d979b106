/**
 * The page-side bridge: runs inside the runtime's Chromium page next to the VN engine
 * (window.yumecast), bundled by the agent (server/host/bridge-bundle.ts) and loaded with it: a
 * runtime loads /runtime/host.html, the runtime's page with this script after the engine's
 * (server/host/page-paths.ts). neko-style separation:
 *   capture   = yumecast.captureStream(fps, { mode }), the engine's canvas + WebAudio
 *               MediaStream (frames on change or at the draw rate);
 *   transport = WebRtcPublisher (lib/streaming/webrtc/publisher.ts), signalling via the api,
 *               opened while the game loads when joinDuringStart (see begin), the preferred
 *               video codec first;
 *   input     = every raw data-channel message through the session's rules (../session-rules.ts,
 *               shared with the light runtime): RateLimiter → parsePlayerMessage →
 *               yumecast.applyInput (pointer, key, wheel) or the host's own handling
 *               (ping → pong, quality → publisher + engine, screenshot → the agent);
 *   text      = the engine's lines and choices, and its `cleared` → `line` / `choices` / `clear`
 *               messages (./textRelay.ts).
 * The rules also keep the idle, join and reconnect timers of DESIGN §4 and count what was
 * dropped; this page runs a warm runtime's preload (./prewarm.ts).
 * Nothing a player sends reaches anything but applyInput, setQuality, pong or a screenshot.
 */
import type { HostMessage } from '../../../lib/streaming/messages';
import type { WebRtcToken } from '../../../lib/streaming/types';
import { WebRtcPublisher } from '../../../lib/streaming/webrtc/publisher';
import type { YumecastApi } from '../../../runtime/src/main';
import type { BridgeApi, BridgeCounters, BridgeReadyInfo, BridgeSessionConfig, HostCall, PrewarmResult } from '../bridge-protocol';
import type { PrewarmPlan } from '../prewarm';
import { newCounters, SessionRules } from '../session-rules';
import { installNativeEngine, type NativeEngine } from './native-engine';
import { prewarmPage } from './prewarm';
import { signalOpenCount, signalOpened } from './signalOpen';
import { TextRelay } from './textRelay';

type HostCallFn = (kind: HostCall['kind'], data: Omit<HostCall, 'kind'>) => Promise<unknown>;

declare global {
  interface Window {
    __yumecastHost?: BridgeApi;
    __yumecastHostCall?: HostCallFn;
  }
}

/** The VN runtime's API on the page, or null before its script has run. */
function loadedYumecast(): YumecastApi | null {
  return (window as unknown as { yumecast?: YumecastApi }).yumecast ?? null;
}

function yumecast(): YumecastApi {
  const y = loadedYumecast();
  if (!y) throw new Error('the VN runtime (window.yumecast) is not loaded');
  return y;
}

function callHost<K extends HostCall['kind']>(kind: K, data: Omit<Extract<HostCall, { kind: K }>, 'kind'>): Promise<unknown> {
  const fn = window.__yumecastHostCall;
  if (typeof fn !== 'function') return Promise.resolve(null);
  try {
    return Promise.resolve(fn(kind, data)).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
}

const now = () => performance.now();

class Bridge implements BridgeApi {
  readonly version = 1 as const;
  private publisher: WebRtcPublisher | null = null;
  /** The session's rules (../session-rules.ts): input, notices, clocks, counters. */
  private rules: SessionRules | null = null;
  /** The game's lines and choices on their way to the player (issue 13). */
  private text: TextRelay | null = null;
  private detachText: (() => void) | null = null;
  /** A native title's engine (it replaced window.yumecast for this session), or null. */
  private native: NativeEngine | null = null;

  prewarm(plan: PrewarmPlan): Promise<PrewarmResult> {
    return prewarmPage(plan, loadedYumecast());
  }

  /**
   * Starts the game and publishing; resolves when the host may report `ready`: the game is
   * running, its stream published and the signalling open (docs/sessions.md).
   * joinDuringStart: the signalling socket opens first, so its handshake runs while the engine
   * starts (the engine keeps this page's thread busy; the socket's handshake does not need it),
   * and the stream goes into the open publisher the moment the engine has drawn. Otherwise the
   * order before issue 11: start, then publish (which opens the socket).
   * `ready` is not reported before the game runs: the agent's and the api's contract, and their
   * tests, read the game's state right after it (docs/streaming.md "The webrtc provider").
   */
  async begin(cfg: BridgeSessionConfig): Promise<BridgeReadyInfo> {
    if (this.rules) throw new Error('this runtime already runs a session');
    const t0 = now();
    const rules = new SessionRules(cfg, {
      send: (m) => this.send(m),
      callHost,
      applyInput: (m) => yumecast().applyInput(m),
      setQuality: async (level) => {
        yumecast().setQuality(level);
        await this.publisher?.setQuality(level);
      },
      refreshFrames: () => yumecast().refreshFrames(),
      flushText: () => this.text?.flush(),
    });
    this.rules = rules;
    if (cfg.native) this.native = installNativeEngine(cfg.native);
    const y = yumecast();
    y.setQuality(cfg.quality);
    const publisher = new WebRtcPublisher({ videoCodec: cfg.videoCodec, bitrateFloor: cfg.bitrateFloor, estimateHeadroom: cfg.estimateHeadroom ?? undefined, audioPtimeMs: cfg.audioPtimeMs || undefined, offerAhead: cfg.offerAhead });
    this.publisher = publisher;
    await publisher.setQuality(cfg.quality);
    const token: WebRtcToken = {
      provider: 'webrtc',
      webrtc: { signalUrl: cfg.signalUrl, signalToken: cfg.signalToken, iceServers: cfg.iceServers },
    };
    const events = {
      onRawMessage: (raw: unknown) => rules.onRaw(raw),
      onState: (state: string) => rules.onConnection(state),
      onPeerJoined: () => rules.onPeerJoined(),
      onPeerLeft: () => rules.onPlayerGone(),
    };
    if (cfg.joinDuringStart) await publisher.publish(null, token, events);
    // before start: a resumed save shows its line during start, and the player reads it on ready
    this.text = new TextRelay((m) => this.send(m));
    this.detachText = this.text.attach(y);
    const info = await y.start({
      gameId: cfg.gameId,
      sessionId: cfg.sessionId,
      assetBase: cfg.assetBase,
      storyUrl: cfg.storyUrl,
      state: cfg.resumeState ?? undefined,
      saves: cfg.saves,
      fps: cfg.captureFps,
    });
    const startMs = now() - t0;
    if (rules.isEnded) throw new Error('session ended while starting');
    const stream = y.captureStream(cfg.captureFps, { mode: cfg.frameMode });
    if (cfg.joinDuringStart) await publisher.setStream(stream);
    else await publisher.publish(stream, token, events);
    rules.streamIn();
    // `ready` means the signalling connection is open (the SignalClient keeps retrying if not)
    const open = await signalOpened(5000);
    if (!open) void callHost('log', { level: 'warn', message: 'signalling not open after 5 s; reporting ready anyway' });
    rules.started();
    return { gameId: info.gameId, title: info.title, startMs: Math.round(startMs), beginMs: Math.round(now() - t0) };
  }

  async end(reason: string): Promise<void> {
    if (!this.rules || this.rules.isEnded) return;
    this.rules.end(reason);
    this.detachText?.();
    // give the bye a moment to leave before the connection goes
    await new Promise((r) => setTimeout(r, 60));
    this.publisher?.close();
    this.native?.close();
  }

  private send(msg: HostMessage): boolean {
    try {
      return this.publisher?.send(msg) ?? false;
    } catch {
      return false;
    }
  }

  counters(): BridgeCounters {
    const extra = { signalOpens: signalOpenCount(), offersAhead: this.publisher?.offersAhead ?? 0, estimateMaxKbps: this.publisher?.estimateMaxKbps ?? 0 };
    return this.rules ? this.rules.counters(extra) : { ...newCounters(), ...extra };
  }
}

window.__yumecastHost = new Bridge();
window.dispatchEvent(new CustomEvent('yumecast-host:loaded'));
