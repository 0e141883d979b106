/**
 * The story's UI over the stage: the text window (a cached frame, the name plate, the line typed
 * so far, the click-to-continue indicator), the choices, the quick menu, and the AUTO / SKIP badge.
 * The wrapped layout of the current line is cached until the line (or the fonts) change.
 */
import type { Engine } from '../engine';
import { font, luminance, wrapText } from '../text';
import { H, W } from '../types';
import { TEXT_WINDOW, layoutButtons } from '../ui';
import { drawButton, drawQuick } from './buttons';
import { ACCENT, idleWave, rr, type Layers } from './common';

interface TextLayout {
  key: string;
  lines: string[];
  size: number;
  lh: number;
}

export class StoryUi {
  private layout: TextLayout | null = null;

  constructor(private readonly layers: Layers) {}

  /** Fonts changed: widths change, lay the line out again. */
  reset(): void {
    this.layout = null;
  }

  private textLayout(ctx: CanvasRenderingContext2D, text: string): TextLayout {
    if (this.layout && this.layout.key === text) return this.layout;
    const maxW = TEXT_WINDOW.w - 96;
    let size = 29;
    let lh = 46;
    let lines: string[] = [];
    for (const [s, l] of [
      [29, 46],
      [26, 39],
      [23, 34],
      [20, 29],
    ] as const) {
      ctx.font = font(s, 400);
      lines = wrapText(ctx, text, maxW);
      size = s;
      lh = l;
      if (lines.length * l <= 150) break;
    }
    this.layout = { key: text, lines, size, lh };
    return this.layout;
  }

  draw(ctx: CanvasRenderingContext2D, e: Engine, now: number): void {
    const fading = e.stage.transition?.kind === 'fade';
    const line = e.reader.line;
    const choices = e.visibleChoices();
    if (choices.length) {
      ctx.fillStyle = 'rgba(6,8,20,0.32)';
      ctx.fillRect(0, 0, W, H);
    }
    if (!e.windowHidden && !fading && line && line.text) {
      const { x, y, w, h } = TEXT_WINDOW;
      ctx.save();
      ctx.drawImage(
        this.layers.get('window', 'w', w + 4, h + 4, (g) => drawWindowFrame(g, w, h)),
        x - 2,
        y - 2,
      );

      if (line.name) {
        ctx.font = font(24, 700);
        const nw = Math.max(120, ctx.measureText(line.name).width + 52);
        const col = line.color ?? '#5a6fb0';
        const nx = x + 28;
        const ny = y - 30;
        ctx.fillStyle = col;
        rr(ctx, nx, ny, nw, 46, 12);
        ctx.fill();
        ctx.strokeStyle = 'rgba(255,255,255,0.5)';
        ctx.lineWidth = 1.5;
        ctx.stroke();
        ctx.fillStyle = luminance(col) > 0.55 ? '#1b1b2b' : '#ffffff';
        ctx.textBaseline = 'middle';
        ctx.textAlign = 'center';
        ctx.fillText(line.name, nx + nw / 2, ny + 24);
        ctx.textAlign = 'left';
      }

      const lay = this.textLayout(ctx, line.text);
      ctx.font = font(lay.size, 400);
      ctx.textBaseline = 'alphabetic';
      ctx.fillStyle = '#ffffff';
      let left = e.reader.visibleCount(now);
      const tx = x + 48;
      let ty = y + 30 + lay.size + (line.name ? 8 : 0);
      let endX = tx;
      let endY = ty;
      for (const l of lay.lines) {
        if (left <= 0) break;
        const chars = Array.from(l);
        const part = left >= chars.length ? l : chars.slice(0, left).join('');
        left -= chars.length;
        ctx.fillText(part, tx, ty);
        endX = tx + ctx.measureText(part).width;
        endY = ty;
        ty += lay.lh;
      }
      // click-to-continue indicator
      if (!e.reader.typing(now) && !choices.length) {
        const bob = idleWave(now, 220, 0) * 3;
        const ix = Math.min(endX + 14, x + w - 40);
        const iy = endY - lay.size * 0.35 + bob;
        ctx.fillStyle = ACCENT;
        ctx.beginPath();
        ctx.moveTo(ix, iy - 7);
        ctx.lineTo(ix + 16, iy - 7);
        ctx.lineTo(ix + 8, iy + 5);
        ctx.closePath();
        ctx.fill();
      }
      ctx.restore();
    }
    for (const b of layoutButtons(e)) {
      if (b.kind === 'choice') drawButton(ctx, b, e.menus.focusId, now);
      else if (b.kind === 'quick' && !fading && line?.text) drawQuick(ctx, b, e.pointerX, e.pointerY);
    }
    if (e.auto || e.skipping()) drawModeBadge(ctx, e.auto ? 'AUTO' : 'SKIP ▶▶', now);
  }
}

/** The text window's frame (cached as a layer). */
function drawWindowFrame(g: CanvasRenderingContext2D, w: number, h: number): void {
  const gr = g.createLinearGradient(0, 0, 0, h);
  gr.addColorStop(0, 'rgba(16,20,44,0.80)');
  gr.addColorStop(1, 'rgba(10,12,30,0.90)');
  g.fillStyle = gr;
  rr(g, 2, 2, w, h, 18);
  g.fill();
  g.strokeStyle = 'rgba(255,255,255,0.22)';
  g.lineWidth = 1.5;
  g.stroke();
  // a thin accent line along the top
  const ag = g.createLinearGradient(0, 0, w, 0);
  ag.addColorStop(0, 'rgba(255,134,173,0)');
  ag.addColorStop(0.2, 'rgba(255,134,173,0.7)');
  ag.addColorStop(0.8, 'rgba(255,197,138,0.7)');
  ag.addColorStop(1, 'rgba(255,197,138,0)');
  g.fillStyle = ag;
  g.fillRect(26, 3, w - 48, 2);
}

/** AUTO / SKIP, top right, pulsing. */
function drawModeBadge(ctx: CanvasRenderingContext2D, label: string, now: number): void {
  ctx.save();
  ctx.font = font(18, 700);
  const bw = ctx.measureText(label).width + 36;
  ctx.globalAlpha = 0.75 + 0.25 * idleWave(now, 300, 1);
  ctx.fillStyle = 'rgba(10,12,30,0.7)';
  rr(ctx, W - bw - 24, 20, bw, 36, 18);
  ctx.fill();
  ctx.fillStyle = ACCENT;
  ctx.textBaseline = 'middle';
  ctx.fillText(label, W - bw - 6, 39);
  ctx.restore();
}
