/**
 * Draws the engine's state to the 1280×720 canvas, one frame per draw(): advances the engine's
 * clock, then the base layer (the screen: loading, title, stage, ending card, error — what
 * transitions blend, with shake), the flash, the story UI, the overlays and the toast. The pieces
 * are drawn by draw/ (stage, screens, story UI, overlays, buttons); this file composes them and
 * blends transitions. It also gives the stage its snapshot (the picture a transition starts from).
 */
import type { Engine } from './engine';
import { Layers } from './draw/common';
import { OverlayUi, drawToast } from './draw/overlays';
import { drawEnding, drawError, drawLoading, drawTitle } from './draw/screens';
import { drawStage } from './draw/stage';
import { StoryUi } from './draw/story-ui';
import { clearWidthCache } from './text';
import { H, W } from './types';
import { platform } from './platform';

export class Renderer {
  readonly ctx: CanvasRenderingContext2D;
  private last = performance.now();
  /** Static layers drawn once and blitted each frame (software raster: every full-screen effect costs). */
  private readonly layers: Layers;
  private readonly storyUi: StoryUi;
  private readonly overlays = new OverlayUi();

  /** `layers`: static layers drawn ahead (a prepared title's screen: prepare.ts), or none. */
  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly engine: Engine,
    layers?: Layers,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('no 2d context');
    this.ctx = ctx;
    this.layers = layers ?? new Layers(() => this.engine.assets?.art.epoch ?? 0);
    this.storyUi = new StoryUi(this.layers);
    engine.stage.snapshot = (into) => {
      const g = into.getContext('2d')!;
      this.drawBase(g, performance.now());
    };
    platform().fonts()?.addEventListener('loadingdone', () => {
      clearWidthCache();
      this.storyUi.reset();
      this.overlays.reset();
      engine.dirty = true;
    });
  }

  /** Draws one frame. */
  draw(now: number): void {
    const e = this.engine;
    const dt = Math.max(0, (now - this.last) / 1000);
    this.last = now;
    e.tick(now, dt);
    e.frame++;
    e.dirty = false;
    const ctx = this.ctx;
    ctx.save();
    // shake: a decaying jitter of everything on the stage
    const sp = (now - e.stage.shakeStart) / 600;
    if (sp >= 0 && sp < 1) {
      const amp = 16 * (1 - sp) * (1 - sp);
      ctx.translate(Math.sin(now * 0.09) * amp, Math.cos(now * 0.113) * amp * 0.6);
    }
    this.drawBase(ctx, now);
    ctx.restore();
    const fp = (now - e.stage.flashStart) / 500;
    if (fp >= 0 && fp < 1) {
      ctx.fillStyle = `rgba(255,255,255,${(1 - fp) * 0.9})`;
      ctx.fillRect(0, 0, W, H);
    }
    const opaque = e.overlay === 'backlog' || e.overlay === 'save' || e.overlay === 'load';
    if (e.screen === 'story' && !opaque) this.storyUi.draw(ctx, e, now);
    if (e.overlay) this.overlays.draw(ctx, e, now);
    if (e.menus.toast) drawToast(ctx, e.menus.toast.text);
  }

  /** The base layer: what transitions blend (title, stage, ending card), and the transition. */
  drawBase(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    switch (e.screen) {
      case 'boot':
        drawLoading(ctx, now);
        break;
      case 'title':
        drawTitle(ctx, e, this.layers, now);
        break;
      case 'story':
        this.drawStage(ctx);
        break;
      case 'ending':
        this.drawStage(ctx);
        drawEnding(ctx, e, now);
        break;
      case 'error':
        drawError(ctx, e.error);
        break;
    }
    const t = e.stage.transition;
    if (t) {
      const p = Math.max(0, Math.min(1, (now - t.start) / t.dur));
      ctx.save();
      if (t.kind === 'crossfade') {
        ctx.globalAlpha = 1 - p * p * (3 - 2 * p);
        ctx.drawImage(t.from, 0, 0);
      } else if (t.kind === 'fade') {
        if (p < 0.5) {
          ctx.drawImage(t.from, 0, 0);
          ctx.fillStyle = `rgba(0,0,0,${p * 2})`;
        } else {
          ctx.fillStyle = `rgba(0,0,0,${(1 - p) * 2})`;
        }
        ctx.fillRect(0, 0, W, H);
      } else if (t.kind === 'flash') {
        if (p < 0.3) {
          ctx.drawImage(t.from, 0, 0);
          ctx.fillStyle = `rgba(255,255,255,${p / 0.3})`;
        } else {
          ctx.fillStyle = `rgba(255,255,255,${(1 - p) / 0.7})`;
        }
        ctx.fillRect(0, 0, W, H);
      }
      ctx.restore();
    }
  }

  private drawStage(ctx: CanvasRenderingContext2D): void {
    const e = this.engine;
    drawStage(ctx, this.layers, e.stage, e.assets, e.game, e.reader.line?.speaker ?? null);
  }
}
