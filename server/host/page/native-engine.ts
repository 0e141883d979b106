/**
 * The native runtime's engine in the runtime page (issue 15): stands in for the VN engine's
 * `window.yumecast` when the session plays a game that runs outside the browser (a Ren'Py game
 * under Xvfb, server/host/native/). The bridge (./bridge.ts) then drives it exactly as it drives
 * our engine — start, captureStream, applyInput, refreshFrames, screenshot, getState — so the
 * publisher, the input checks, the idle rules and the player's page are the same for both kinds.
 *
 *   capture   = the game window's pictures from the agent's stream (native/stream-protocol.ts):
 *               changed bands patched into one BGRX picture, written to a video track generator as
 *               a VideoFrame only when the picture changed (+ the refining and refresh frames of
 *               the web engine's `change` mode, runtime/src/frames.ts); the game's sound as PCM
 *               written to an audio track generator;
 *   input     = the bridge's validated pointer/key/wheel messages, sent back on the same socket
 *               (the agent validates again and injects them into the display with XTest);
 *   screenshot = the picture held here (the display's own pixels at full resolution, not the video);
 *   text      = the lines and menus our Ren'Py overlay reports (native/text.ts), as the VN engine's
 *               `line` / `choices` / `chosen` / `cleared` events, so the bridge's TextRelay sends them as for
 *               every title (transcript, captions, the panel's choice buttons → digit keys).
 */
import type { InputMessage, QualityLevel } from '../../../lib/streaming/messages';
import { REFRESH_MS } from '../../../runtime/src/frames';
import { blankEngineState, type EngineState, type ReadyInfo, type StartOptions, type YumecastApi } from '../../../runtime/src/types';
import { AUDIO_FRAME_BYTES, KIND_AUDIO, KIND_FRAME, bgrxToRgba, decodeFrame, type NativeControl, type NativeHello, type NativeText } from '../native/stream-protocol';

export interface NativeEngineOptions {
  /** ws://<pages' origin>/native/stream?key=… (the session's key). */
  streamUrl: string;
}

/** After a change, the still picture is sent again at these delays (ms), so the encoder refines it. */
const REFINE_MS = [100, 250, 500, 800, 1200, 1700];
/** After a new consumer (the player connected), sooner: the first frames may be dropped while the sender starts. */
const JOIN_REFINE_MS = [33, 66, 100, 150, 250, 500, 800, 1200, 1700];

type VideoGenerator = MediaStreamTrack & { readonly writable: WritableStream<VideoFrame> };
type AudioGenerator = MediaStreamTrack & { readonly writable: WritableStream<AudioData> };
type GeneratorCtor = new (init: { kind: 'video' | 'audio' }) => MediaStreamTrack & { readonly writable: WritableStream<unknown> };

function generatorCtor(): GeneratorCtor | null {
  const g = (globalThis as { MediaStreamTrackGenerator?: GeneratorCtor }).MediaStreamTrackGenerator;
  return typeof g === 'function' ? g : null;
}

export class NativeEngine implements YumecastApi {
  readonly version = 'native-1';
  private ws: WebSocket | null = null;
  private hello: NativeHello | null = null;
  private picture: Uint8Array | null = null;
  private gameId: string | null = null;
  private sessionId: string | null = null;
  private ready = false;
  private frames = 0;
  private videoFrames = 0;
  private audioFrames = 0;
  private badMessages = 0;
  private quality: QualityLevel = 'high';
  private video: WritableStreamDefaultWriter<VideoFrame> | null = null;
  private audio: WritableStreamDefaultWriter<AudioData> | null = null;
  private stream: MediaStream | null = null;
  private refineTimers: ReturnType<typeof setTimeout>[] = [];
  private refreshTimer: ReturnType<typeof setInterval> | null = null;
  private firstFrame: (() => void) | null = null;
  private failed: ((e: Error) => void) | null = null;
  /** The bridge's TextRelay listens here: the game's lines and menus as the VN engine's events. */
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly opts: NativeEngineOptions) {}

  /** Opens the stream; resolves on the game's first picture. */
  async start(options: StartOptions = {}): Promise<ReadyInfo> {
    const t0 = performance.now();
    this.gameId = options.gameId ?? null;
    this.sessionId = options.sessionId ?? null;
    await new Promise<void>((resolve, reject) => {
      this.firstFrame = resolve;
      this.failed = reject;
      const ws = new WebSocket(this.opts.streamUrl);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      ws.onmessage = (ev) => this.onMessage(ev.data);
      ws.onclose = () => {
        this.failed?.(new Error('the native stream closed before the game showed its first picture'));
        this.stopTimers();
      };
    });
    this.ready = true;
    const ms = Math.round(performance.now() - t0);
    return { gameId: this.gameId ?? '', sessionId: this.sessionId, title: this.gameId ?? '', startMs: ms, timings: { native: ms }, storySource: 'precompiled', prepared: false };
  }

  private onMessage(data: unknown): void {
    if (typeof data === 'string') {
      try {
        const m = JSON.parse(data) as NativeHello | NativeText;
        if (m.type === 'hello' && m.width > 0 && m.height > 0) {
          this.hello = m;
          this.picture = new Uint8Array(m.width * m.height * 4);
        } else if (m.type === 'text') {
          for (const fn of this.listeners.get(m.event) ?? []) fn(m.payload);
        }
      } catch {
        this.badMessages++;
      }
      return;
    }
    if (!(data instanceof ArrayBuffer) || data.byteLength < 1) return;
    const msg = new Uint8Array(data);
    if (msg[0] === KIND_FRAME) this.onFrame(msg);
    else if (msg[0] === KIND_AUDIO) this.onAudio(msg.subarray(1));
  }

  private onFrame(msg: Uint8Array): void {
    const h = this.hello;
    const pic = this.picture;
    if (!h || !pic) return;
    const f = decodeFrame(msg, h.width, h.height);
    if (!f) {
      // the picture held here may now miss a change: ask for the whole one
      this.badMessages++;
      const full: NativeControl = { type: 'full' };
      this.ws?.send(JSON.stringify(full));
      return;
    }
    for (const b of f.bands) pic.set(b.data, b.y * h.width * 4);
    this.frames++;
    if (this.firstFrame) {
      const done = this.firstFrame;
      this.firstFrame = null;
      this.failed = null;
      done();
    }
    this.writeFrame();
    this.refine(REFINE_MS);
  }

  private onAudio(pcm: Uint8Array): void {
    const w = this.audio;
    const h = this.hello;
    if (!w || !h || typeof AudioData !== 'function') return;
    const frames = Math.floor(pcm.byteLength / AUDIO_FRAME_BYTES);
    if (frames === 0) return;
    try {
      const data = new AudioData({
        format: 's16',
        sampleRate: h.sampleRate,
        numberOfChannels: h.channels,
        numberOfFrames: frames,
        timestamp: Math.round((this.audioFrames * 1e6) / h.sampleRate),
        data: pcm.slice(0, frames * AUDIO_FRAME_BYTES),
      });
      this.audioFrames += frames;
      void w.write(data).catch(() => data.close());
    } catch {
      this.badMessages++;
    }
  }

  /** One video frame of the picture held now (a copy: the picture keeps changing). */
  private writeFrame(): void {
    const w = this.video;
    const h = this.hello;
    if (!w || !h || !this.picture || !this.ready) return;
    try {
      const frame = new VideoFrame(this.picture, { format: 'BGRX', codedWidth: h.width, codedHeight: h.height, timestamp: Math.round(performance.now() * 1000) });
      this.videoFrames++;
      void w.write(frame).catch(() => frame.close());
    } catch {
      this.badMessages++;
    }
  }

  private refine(delays: readonly number[]): void {
    for (const t of this.refineTimers) clearTimeout(t);
    this.refineTimers = delays.map((ms) => setTimeout(() => this.writeFrame(), ms));
  }

  private stopTimers(): void {
    for (const t of this.refineTimers) clearTimeout(t);
    this.refineTimers = [];
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  captureStream(): MediaStream {
    if (this.stream) return this.stream;
    const Gen = generatorCtor();
    if (!Gen) throw new Error('MediaStreamTrackGenerator is not available: the native runtime needs Chromium');
    const v = new Gen({ kind: 'video' }) as VideoGenerator;
    this.video = v.writable.getWriter();
    const tracks: MediaStreamTrack[] = [v];
    if (typeof AudioData === 'function') {
      const a = new Gen({ kind: 'audio' }) as AudioGenerator;
      this.audio = a.writable.getWriter();
      tracks.push(a);
    }
    this.stream = new MediaStream(tracks);
    this.refreshTimer = setInterval(() => this.writeFrame(), REFRESH_MS);
    this.refreshFrames();
    return this.stream;
  }

  refreshFrames(): void {
    this.writeFrame();
    this.refine(JOIN_REFINE_MS);
  }

  applyInput(raw: unknown): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || !this.ready) return false;
    ws.send(JSON.stringify(raw as InputMessage));
    return true;
  }

  /** The display's picture held here, as a PNG data URL at full resolution. */
  async screenshot(): Promise<string> {
    const h = this.hello;
    const pic = this.picture;
    if (!h || !pic || !this.ready) throw new Error('no picture yet');
    const canvas = document.createElement('canvas');
    canvas.width = h.width;
    canvas.height = h.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    const img = ctx.createImageData(h.width, h.height);
    bgrxToRgba(pic, img.data as unknown as Uint8Array);
    ctx.putImageData(img, 0, 0);
    return canvas.toDataURL('image/png');
  }

  getState(): EngineState {
    return {
      ...blankEngineState(this.quality),
      ready: this.ready,
      gameId: this.gameId,
      sessionId: this.sessionId,
      screen: this.ready ? 'story' : 'boot',
      frame: this.frames,
      frameMode: 'change',
      capture: 'frame',
      videoFrames: this.videoFrames,
      error: this.badMessages ? `${this.badMessages} malformed stream messages` : null,
      fontsReady: true,
      audio: { state: this.audio ? 'running' : 'none', currentTime: this.audioFrames / (this.hello?.sampleRate ?? 48_000), music: null, loop: null, output: 'none' },
    };
  }

  setQuality(level: QualityLevel): void {
    // the publisher's encoder settings carry the quality; the game's window keeps its size
    this.quality = level;
  }

  /** `line`, `choices`, `chosen`, `cleared`: what our Ren'Py overlay reports the game shows (native/text.ts). */
  on(name: string, fn: (payload: unknown) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  }

  prepare(gameId: string): Promise<{ gameId: string; ok: boolean; error: string; ms: number; timings: Record<string, number> }> {
    return Promise.resolve({ gameId, ok: false, error: 'native titles are not prepared in a page', ms: 0, timings: {} });
  }

  loadState(): boolean {
    return false;
  }

  /** The game keeps its own saves (files the agent collects): no engine state to snapshot. */
  snapshot(): string | null {
    return null;
  }

  setSaves(): number {
    return 0;
  }

  setVolume(): void {
    /* the game's own volume settings apply */
  }

  /** The stream closes (the session ends). */
  close(): void {
    this.stopTimers();
    try {
      this.ws?.close();
    } catch {
      /* closed already */
    }
  }
}

/** Puts a native engine in the VN engine's place (`window.yumecast`) for this page's one session. */
export function installNativeEngine(opts: NativeEngineOptions): NativeEngine {
  const engine = new NativeEngine(opts);
  (window as unknown as { yumecast: YumecastApi }).yumecast = engine;
  return engine;
}
