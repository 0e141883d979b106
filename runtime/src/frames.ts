/**
 * The frame scheduler: when the page draws its canvas and when the captured video track gets a
 * frame, in one of two modes (the host's HOST_FRAME_MODE; docs/vn-engine.md "Frames"):
 *
 * - `steady` (the behaviour before issue 11, kept for the benches' before/after): a
 *   requestAnimationFrame loop (+ a 100 ms timer while rAF is throttled) draws at the engine's
 *   rate (pace.ts steadyFps: 30 fps moving, 12 waiting, ≥ 5 keep-alive, 60 right after a change)
 *   and the track is `captureStream(fps)`, which sends every draw.
 * - `change`: no loop. A draw is scheduled with a timer for when the picture changes (pace.ts
 *   nextChangeAt: at most `maxFps` while moving, ~16 fps while typing) and at once
 *   (≤ 60 fps) when something marks the engine dirty (input, a load, fonts, art). The track gets
 *   a frame after each draw (below: how). A still picture is refreshed (its frame sent again;
 *   with `canvas` tracks a transparent 1-pixel touch + requestFrame: Chromium sends a requested
 *   frame only once the canvas is drawn to, measured on Debian Chromium 156) a few times over
 *   the next 1.7 s, so the encoder refines the still text, then every REFRESH_MS so receivers
 *   stay healthy; `refresh()` (a new consumer) sends one at once and starts that again.
 *
 * How a `change` track gets its frames (`capturePath`, the page's `?capture=`):
 * - `frame` (default): the track is a MediaStreamTrackGenerator and each frame is written to it as
 *   `new VideoFrame(canvas)` (one snapshot, a clone per track). A refresh writes a frame of the
 *   unchanged canvas: no transparent-pixel touch.
 * - `canvas` (the way before, kept for before/after): `captureStream(0)` + `requestFrame()`.
 * Measured on Debian Chromium 156 (--disable-gpu), a session reading on (~13.5 frames/s), 6+6
 * sessions: with `canvas` Blink's end-of-task flush (CanvasRenderingContext2D::FinalizeFrame)
 * costs ~4.2 ms a frame (~0.8 ms without requestFrame) + ~0.65 ms of read-back
 * (HTMLCanvasElement::NotifyListenersCanvasChanged); with `frame` the snapshot flushes in the
 * draw's task (~1.4 ms more JS) and the end-of-task flush costs nothing: renderer main thread
 * ~4.0 vs ~7.2 ms a frame, the whole renderer ~17.6 vs ~20.3 ms, the same pixels.
 * Without MediaStreamTrackGenerator (a browser that lacks it) `frame` falls back to `canvas`
 * (`capturing`: the path the tracks use; `capturePath` stays what was asked).
 */

import type { FrameMode } from './types';

export type { FrameMode } from './types';

/** What the scheduler draws: the engine's renderer, or the boot screen before start(). */
export interface FramePainter {
  /** Draws one frame at `now`. */
  draw(now: number): void;
  /** `steady`: frames per second wanted now. */
  steadyFps(now: number): number;
  /** `change`: when the picture next changes by itself (ms, performance.now), Infinity = still. */
  nextChangeAt(now: number): number;
}

/**
 * `change`: after a change, extra frames of the still picture at these delays (ms). The first one
 * carries a change whose own frame the encoder dropped; the others let it refine what it coded
 * coarsely. Three were as good as six to a player's eye: bench/play-sharpness.ts, the received
 * text window within 0.3 dB (46–47 dB luma PSNR against the canvas) at every moment up to 4 s,
 * three frames fewer per line (docs/performance.md "fifteenth round").
 */
const REFINE_MS = [100, 500, 1700];
/**
 * `change`: after `refresh()` (a new consumer: a player has just connected), the extra frames come
 * sooner: the first frames after a connection may be dropped while the sender's encoder and
 * transport start (measured: the player's first frame came 66–164 ms after it connected with
 * REFINE_MS), and each one here costs almost nothing on a still picture.
 */
const JOIN_REFINE_MS = [33, 66, 100, 150, 250, 500, 800, 1200, 1700];
/** `change`: then one frame this often (ms). */
export const REFRESH_MS = 2500;
/** Draws right after a change come at most this often (ms), like the steady loop's 60 fps. */
const MIN_WAKE_MS = 1000 / 60 - 1;

type CanvasTrack = MediaStreamTrack & { requestFrame?: () => void };

/** `change`: how the tracks get their frames (see above). */
export type CapturePath = 'frame' | 'canvas';

/** Chromium's MediaStreamTrackGenerator (mediacapture-transform, exposed on Window in Chromium). */
type TrackGenerator = MediaStreamTrack & { readonly writable: WritableStream<VideoFrame> };
type TrackGeneratorCtor = new (init: { kind: 'video' }) => TrackGenerator;
function trackGenerator(): TrackGeneratorCtor | undefined {
  const g = (globalThis as { MediaStreamTrackGenerator?: TrackGeneratorCtor }).MediaStreamTrackGenerator;
  return typeof g === 'function' && typeof VideoFrame === 'function' ? g : undefined;
}

export class FrameScheduler {
  mode: FrameMode = 'steady';
  /** `steady`: the most frames per second (start's `fps`); `change`: the most while moving. */
  maxFps = 30;
  /** Frames drawn (getState().frame). */
  frames = 0;
  /** Moving average of one draw's time (ms). */
  drawMs = 0;
  /** Video frames requested from the `change` tracks (draws + refreshes). */
  sent = 0;
  /**
   * `change`: how new tracks should get their frames (`frame`: written VideoFrames; `canvas`:
   * requestFrame), as asked (the page's `?capture=`); the path they use is `capturing`.
   */
  capturePath: CapturePath = 'frame';

  private lastDraw = -1e9;
  private lastCallback = performance.now();
  private rafOn = false;
  private interval: ReturnType<typeof setInterval> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private drawing = false;
  private stopped = false;
  private changedAt = -1e9;
  private refine = REFINE_MS;
  private refineStep = REFINE_MS.length;
  private lastSent = -1e9;
  /** `change`: when the last moving frame was due (the next one is due a frame interval later). */
  private cadence = -1e9;
  /** `change`: when the picture changes next, as planned after the last draw (Infinity: still). */
  private changeAt = Infinity;
  private readonly tracks = new Set<CanvasTrack>();
  /** `change`, capturePath `frame`: the generators' tracks and their writers. */
  private readonly writers = new Map<MediaStreamTrack, WritableStreamDefaultWriter<VideoFrame>>();
  /** A VideoFrame of the canvas failed once (logged once, not every frame). */
  private writeFailed = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly ctx: CanvasRenderingContext2D,
    private readonly painter: FramePainter,
  ) {}

  /** Starts drawing in `mode` (switching stops the other mode's loop or timers). */
  setMode(mode: FrameMode): void {
    if (this.stopped) return;
    this.mode = mode;
    if (mode === 'steady') {
      this.clearTimer();
      if (!this.rafOn) {
        this.rafOn = true;
        requestAnimationFrame(this.rafLoop);
      }
      // rAF stops when the page is hidden; keep frames (and the stream) coming anyway.
      this.interval ??= setInterval(() => {
        const now = performance.now();
        if (this.mode === 'steady' && now - this.lastCallback > 250) this.steadyFrame(now);
      }, 100);
    } else {
      if (this.interval) clearInterval(this.interval);
      this.interval = null;
      this.wake();
    }
  }

  /**
   * A video track of the canvas for this mode (`change`: a track generator written to after each
   * draw, or with capturePath `canvas` captureStream(0) driven by requestFrame; `capturing` says
   * which), drawn at once so a new consumer gets a frame.
   */
  capture(fps: number): MediaStreamTrack | undefined {
    const Generator = this.mode === 'change' ? this.generator() : undefined;
    const track = Generator ? this.generatorTrack(Generator) : this.canvasTrack(fps);
    this.lastDraw = -1e9;
    this.refresh();
    return track;
  }

  /**
   * `change`: the path its tracks use: `frame` when it was asked for (capturePath) and the browser
   * has a track generator, else `canvas` (getState().capture).
   */
  get capturing(): CapturePath {
    return this.generator() ? 'frame' : 'canvas';
  }

  /** The track generator `change` tracks are made with: none when `canvas` is asked for or the browser lacks one. */
  private generator(): TrackGeneratorCtor | undefined {
    return this.capturePath === 'frame' ? trackGenerator() : undefined;
  }

  /** `change`, `frame`: a track generator, its writer registered (write() sends it each frame). */
  private generatorTrack(Generator: TrackGeneratorCtor): MediaStreamTrack {
    const gen = new Generator({ kind: 'video' });
    this.writers.set(gen, gen.writable.getWriter());
    return gen;
  }

  /** The canvas's own capture: `captureStream(fps)`, or in `change` captureStream(0), registered for requestFrame. */
  private canvasTrack(fps: number): MediaStreamTrack | undefined {
    const track = this.canvas.captureStream(this.mode === 'change' ? 0 : fps).getVideoTracks()[0] as CanvasTrack | undefined;
    if (this.mode === 'change' && track) {
      this.tracks.add(track);
      track.addEventListener('ended', () => this.tracks.delete(track));
    }
    return track;
  }

  /**
   * Draws no more: its timers cleared (the light runtime's session ended, runtime/node/runtime.ts;
   * a page's scheduler ends with its page).
   */
  stop(): void {
    this.stopped = true;
    this.mode = 'change';
    this.clearTimer();
    if (this.interval) clearInterval(this.interval);
    this.interval = null;
  }

  /** Something visible changed: draw soon (`change`; the steady loop sees `dirty` itself). */
  wake(): void {
    if (this.mode !== 'change' || this.drawing) return;
    this.schedule(Math.max(performance.now(), this.lastDraw + MIN_WAKE_MS));
  }

  /** `change`: a frame of the picture now, and the refining frames after it (a new consumer). */
  refresh(): void {
    if (this.mode !== 'change') return;
    this.changedAt = performance.now();
    this.refine = JOIN_REFINE_MS;
    this.refineStep = 0;
    this.touch();
    this.planNext(performance.now());
  }

  /** Draws now (screenshot), counted, outside the schedule; `change` sends it as a frame. */
  drawNow(): void {
    this.paint(performance.now());
  }

  // ---------------------------------------------------------------------------------------------
  // steady

  private readonly rafLoop = (now: number): void => {
    if (this.mode !== 'steady') {
      this.rafOn = false;
      return;
    }
    this.steadyFrame(now);
    requestAnimationFrame(this.rafLoop);
  };

  private steadyFrame(now: number): void {
    this.lastCallback = now;
    const fps = this.painter.steadyFps(now);
    if (now - this.lastDraw >= 1000 / fps - 2) {
      this.lastDraw = now;
      this.paint(now);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // change

  private paint(now: number): void {
    this.drawing = true;
    this.frames++;
    try {
      const t = performance.now();
      this.painter.draw(now);
      this.drawMs = this.drawMs * 0.95 + (performance.now() - t) * 0.05;
    } catch (err) {
      console.error('[yumecast] draw failed', err);
    } finally {
      this.drawing = false;
    }
    if (this.mode === 'change') {
      this.lastDraw = now;
      this.changeAt = Infinity;
      this.changedAt = now;
      this.refine = REFINE_MS;
      this.refineStep = 0;
      this.send();
    }
  }

  private readonly onTimer = (): void => {
    const due = this.timerAt;
    this.timer = null;
    this.timerAt = Infinity;
    if (this.mode !== 'change') return;
    const now = performance.now();
    // a change planned for now (a timer may come late: the change it was set for is past) or due now
    if (this.changeAt <= now + 1 || this.painter.nextChangeAt(now) <= now + 1) {
      this.paint(now);
      // keep the cadence when the timer came late (a busy machine): the next frame comes sooner
      this.cadence = now - due < 1000 / this.maxFps ? due : now;
    } else if (this.refreshDue() <= now + 1) {
      this.touch();
      if (this.refineStep < this.refine.length) this.refineStep++;
    }
    this.planNext(performance.now());
  };

  /** When the next refresh frame is due: the refining ones after a change, then every REFRESH_MS. */
  private refreshDue(): number {
    if (this.refineStep < this.refine.length) return this.changedAt + this.refine[this.refineStep];
    return this.lastSent + REFRESH_MS;
  }

  private planNext(now: number): void {
    const change = this.painter.nextChangeAt(now);
    this.changeAt = change;
    const draw = change <= now ? Math.max(now, this.lastDraw + MIN_WAKE_MS, this.cadence + 1000 / this.maxFps) : Math.max(change, this.lastDraw + MIN_WAKE_MS);
    this.clearTimer();
    this.schedule(Math.min(draw, this.tracks.size || this.writers.size ? this.refreshDue() : Infinity));
  }

  private schedule(at: number): void {
    // (Infinity: nothing to wait for; a browser would fire a timer of Infinity ms at once)
    if (this.stopped || !Number.isFinite(at) || (this.timer !== null && this.timerAt <= at)) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(this.onTimer, Math.max(0, at - performance.now()));
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  /**
   * A frame of the unchanged picture: Chromium sends a requested frame once the canvas is drawn to
   * (the `canvas` tracks: a transparent pixel); a generator sends whatever is written to it.
   */
  private touch(): void {
    if (this.tracks.size) {
      this.ctx.save();
      this.ctx.fillStyle = 'rgba(0,0,0,0)';
      this.ctx.fillRect(0, 0, 1, 1);
      this.ctx.restore();
    }
    this.send();
  }

  private send(): void {
    this.lastSent = performance.now();
    for (const t of this.tracks) {
      if (t.readyState === 'ended') this.tracks.delete(t);
      else {
        t.requestFrame?.();
        this.sent++;
      }
    }
    if (this.writers.size) this.write();
  }

  /**
   * `frame`: the canvas now as one VideoFrame, written to every generator (a write closes its
   * frame). A generator whose last frame is still queued (a sink that stalls: Chromium's takes each
   * at once) skips this one, so at most one 3.7 MB frame waits per track; the next draw or refresh
   * sends the picture again.
   */
  private write(): void {
    let frame: VideoFrame;
    try {
      frame = new VideoFrame(this.canvas, { timestamp: Math.round(performance.now() * 1000) });
    } catch (err) {
      if (!this.writeFailed) console.error('[yumecast] video frame failed', err);
      this.writeFailed = true;
      return;
    }
    for (const [t, w] of this.writers) {
      if (t.readyState === 'ended') {
        this.writers.delete(t);
        continue;
      }
      if (w.desiredSize !== null && w.desiredSize <= 0) continue;
      const copy = frame.clone();
      // a stopped generator's writer rejects: forget it, and let its frame go now
      w.write(copy).catch(() => {
        copy.close();
        this.writers.delete(t);
      });
      this.sent++;
    }
    frame.close();
  }
}
