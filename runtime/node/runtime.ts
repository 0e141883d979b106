/**
 * The light runtime's engine (docs/light-runtime.md, slice 1): runtime/src's own Engine,
 * Renderer and InputHandler in Node, drawing into an @napi-rs/canvas canvas, with no Chromium
 * page. What it offers mirrors the page's window.yumecast (runtime/src/main.ts) for what a host's
 * session needs (server/host/light/session.ts): start(), applyInput(), getState(), events,
 * setQuality(), refreshFrames(), snapshot(), screenshot() (the canvas's PNG at full size) and the
 * picture's RGBA pixels; its frames leave through runtime/node/sender.ts (`onFrame` + pixels()).
 *
 * It draws as a host's page does in the `change` mode: frames.ts's FrameScheduler, when the
 * picture changes (pace.ts `nextChangeAt`: the idle animations held still) and at once on input,
 * at most `fps` (30) a second. The start follows main.ts's doStart without what
 * only a page has (a warm page's preparation, fonts loaded in steps: every glyph is registered at
 * boot, runtime/node/platform.ts). Sound is the caller's (`sound`): SilentSound until slice 3.
 */
import { isInputMessage, parsePlayerMessage } from '../../lib/streaming/messages';
import type { QualityLevel } from '../../lib/streaming/messages';
import { artOrder } from '../src/art';
import type { EngineSound } from '../src/audio/engine';
import { GAME_ID_RE, gameUrls, loadContent } from '../src/content';
import { idle } from '../src/draw/common';
import { Engine } from '../src/engine';
import { Emitter } from '../src/events';
import { InputHandler } from '../src/input';
import { FrameScheduler } from '../src/frames';
import { nextChangeAt } from '../src/pace';
import { setPlatform } from '../src/platform';
import { Renderer } from '../src/render';
import { engineState } from '../src/status';
import { H, W, type EngineState, type ReadyInfo, type StartOptions } from '../src/types';
import { nodePlatform } from './platform';
import { SilentSound } from './silent-sound';

export interface LightRuntimeOptions {
  /** The page server's runtime page (`<origin>/runtime/index.html`): what the game's URLs resolve against. */
  baseHref: string;
  sound?: EngineSound;
  /** Each drawn frame (the sender's hook); the canvas holds its pixels. */
  onFrame?: (now: number) => void;
}

export class LightRuntime {
  /** The picture (1280×720): what a frame and a screenshot show. */
  readonly canvas: HTMLCanvasElement;
  private readonly sound: EngineSound;
  private engine: Engine | null = null;
  private renderer: Renderer | null = null;
  private input: InputHandler | null = null;
  private started: Promise<ReadyInfo> | null = null;
  private readonly scheduler: FrameScheduler;
  private closed = false;
  /** The canvas's pixels (pixels()). */
  private readonly view: Buffer;
  /** The engine's events (line, choices, save, autosave, ending, error…), as the page's window.yumecast.on. */
  readonly events = new Emitter();
  private quality: QualityLevel = 'high';
  /** Each drawn frame (the sender's hook, set when it has started); the canvas holds its pixels. */
  onFrame: ((now: number) => void) | null;
  /** Frames drawn, and their total draw time (ms). */
  frames = 0;
  drawMsTotal = 0;

  constructor(private readonly opts: LightRuntimeOptions) {
    this.onFrame = opts.onFrame ?? null;
    const where = nodePlatform(opts.baseHref);
    setPlatform(where);
    // as a host's page in `change` mode: nothing moves by itself while the player waits
    idle.still = true;
    this.canvas = where.createCanvas();
    this.canvas.width = W;
    this.canvas.height = H;
    const g = this.canvas.getContext('2d', { alpha: false })!;
    g.fillStyle = '#000';
    g.fillRect(0, 0, W, H);
    this.view = (this.canvas as unknown as { data(): Buffer }).data();
    this.sound = opts.sound ?? new SilentSound();
    this.scheduler = new FrameScheduler(this.canvas, g, {
      draw: (now) => this.paint(now),
      steadyFps: () => 60,
      nextChangeAt: (now) => (this.engine?.ready ? nextChangeAt(this.engine, now) : Infinity),
    });
    // as a host's page: at most HOST_CAPTURE_FPS frames a second while moving (start's `fps`)
    this.scheduler.maxFps = 30;
    this.scheduler.setMode('change');
  }

  /** Starts the game; `fps`: the most frames a second while the picture moves (the page's captureStream fps; default 30). */
  start(o: StartOptions & { gameId: string; fps?: number }): Promise<ReadyInfo> {
    if (o.fps && o.fps > 0) this.scheduler.maxFps = Math.min(60, o.fps);
    this.started ??= this.doStart(o);
    return this.started;
  }

  private async doStart(o: StartOptions & { gameId: string }): Promise<ReadyInfo> {
    const t0 = performance.now();
    if (!GAME_ID_RE.test(o.gameId)) throw new Error(`bad game id: ${JSON.stringify(o.gameId)}`);
    const { assetBase, storyUrl } = gameUrls(o.gameId, o);
    const e = new Engine({ ...o }, this.sound);
    e.events.host = (name, payload) => this.events.emit(name, payload);
    e.quality = this.quality;
    e.onDirty = () => this.scheduler.wake();
    const r = new Renderer(this.canvas, e);
    this.engine = e;
    this.renderer = r;
    this.input = new InputHandler(e);
    let c;
    try {
      c = await loadContent(assetBase, storyUrl);
    } catch (err) {
      e.fail('game_not_found', err instanceof Error ? err.message : String(err));
      throw err;
    }
    const { game, meta, assets, loaded } = c;
    assets.art.onArrive = () => this.scheduler.wake();
    e.setContent(game, meta, assets, loaded.story);
    for (const s of o.saves ?? []) e.putSlot(s.slot, s.stateJson);
    const resumed = o.state ? e.loadState(o.state) : false;
    if (!resumed && o.skipTitle) e.newGame();
    const firstArt = resumed || o.skipTitle ? e.screenArt() : assets.art.stageKeys(e.titleBackground(), []);
    await assets.art.ensure(firstArt);
    e.fontsReady = true;
    if (!resumed && !o.skipTitle) e.showTitle();
    e.ready = true;
    const info: ReadyInfo = { gameId: o.gameId, sessionId: e.sessionId, title: e.title, startMs: Math.round(performance.now() - t0), timings: {}, storySource: loaded.source, prepared: false };
    e.emit('ready', info);
    this.scheduler.wake();
    // the rest of the art, in idle time, in the order the story uses it (as the page's start)
    assets.art.warm([...firstArt, ...artOrder(loaded.ink, assets.art)]);
    return info;
  }

  /** Applies one player message (input.ts's rules, as the page's applyInput); false when refused. */
  applyInput(raw: unknown): boolean {
    const msg = parsePlayerMessage(raw);
    if (!msg || !isInputMessage(msg) || !this.engine || !this.input) return false;
    this.input.apply(msg);
    this.scheduler.wake();
    return true;
  }

  getState(): EngineState {
    if (!this.engine) throw new Error('not started');
    return { ...engineState(this.engine), frame: this.frames, drawMs: this.frames ? Math.round((this.drawMsTotal / this.frames) * 100) / 100 : 0 };
  }

  /** The picture's quality (the engine's effects; the sender's bitrate is the session's). */
  setQuality(level: QualityLevel): void {
    if (level !== 'high' && level !== 'medium' && level !== 'low') return;
    this.quality = level;
    if (this.engine) this.engine.quality = level;
    this.scheduler.wake();
  }

  /** A frame of the picture now and its refining frames (a player has just got the stream). */
  refreshFrames(): void {
    this.scheduler.refresh();
  }

  /** The engine's play state (saved as slot "auto" when the session ends), or null before it runs. */
  snapshot(): string | null {
    return this.engine?.snapshot() ?? null;
  }

  /** Draws the picture now, outside the schedule (a screenshot's, a test's). */
  drawNow(): void {
    this.scheduler.drawNow();
  }

  private paint(now: number): void {
    if (!this.renderer || this.closed) return;
    const t = performance.now();
    this.renderer.draw(now);
    this.drawMsTotal += performance.now() - t;
    this.frames++;
    this.onFrame?.(now);
  }

  /** The picture as a PNG at full size (1280×720), drawn now. */
  screenshot(): Buffer {
    this.drawNow();
    return (this.canvas as unknown as { toBuffer(mime: 'image/png'): Buffer }).toBuffer('image/png');
  }

  /**
   * The picture's pixels (RGBA, 1280×720): what a sender encodes. A live view of the canvas's own
   * memory, not a copy: it shows each draw as it lands, so a sender takes what it needs in the
   * frame's onFrame, before the next draw. One view for the runtime's life (the canvas is never
   * resized, which would move its memory): @napi-rs/canvas 0.1.80's `data()` makes a view without
   * copying, but each call counts the picture's 3.5 MB as new external memory and the collections
   * that brings cost ~5 ms of CPU a frame; its getImageData of the whole picture leaks a copy a
   * call (docs/performance.md "Issue 11, nineteenth round").
   */
  pixels(): Buffer {
    return this.view;
  }

  /** Stops drawing, frees the art's pixels now and lets the engine go. */
  close(): void {
    this.closed = true;
    this.scheduler.stop();
    this.engine?.assets?.art.dispose();
    this.engine = null;
    this.renderer = null;
    this.input = null;
  }
}
