/** Draws the engine's state to the 1280×720 canvas. */
import type { Engine } from './engine';
import { H, W } from './effects';
import { clearWidthCache, font, luminance, wrapText } from './text';
import { TEXT_WINDOW, layoutButtons, slotRect, type Button } from './ui';

const ACCENT = '#ff86ad';
const ACCENT_2 = '#ffc58a';
const PANEL = 'rgba(14, 18, 40, 0.86)';
const POS_X = { left: 320, center: 640, right: 960 } as const;

const dateFmt = (() => {
  try {
    return new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    return null;
  }
})();

function rr(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function ellipsize(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  const chars = Array.from(text);
  while (chars.length && ctx.measureText(chars.join('') + '…').width > maxWidth) chars.pop();
  return chars.join('') + '…';
}

interface TextLayout {
  key: string;
  lines: string[];
  size: number;
  lh: number;
}

export class Renderer {
  readonly ctx: CanvasRenderingContext2D;
  private layout: TextLayout | null = null;
  private backlogCache = new Map<string, string[]>();
  private last = performance.now();
  /** Static layers drawn once and blitted each frame (software raster: every full-screen effect costs). */
  private layers = new Map<string, { key: string; canvas: HTMLCanvasElement }>();
  private fontEpoch = 0;

  private layer(name: string, key: string, w: number, h: number, draw: (g: CanvasRenderingContext2D) => void): HTMLCanvasElement {
    let l = this.layers.get(name);
    // fonts and art that land later redraw the cached layers
    const fullKey = `${key}|${this.fontEpoch}|${this.engine.assets?.art.epoch ?? 0}`;
    if (!l) {
      const c = document.createElement('canvas');
      l = { key: '', canvas: c };
      this.layers.set(name, l);
    }
    if (l.key !== fullKey) {
      l.canvas.width = w;
      l.canvas.height = h;
      const g = l.canvas.getContext('2d')!;
      g.clearRect(0, 0, w, h);
      draw(g);
      l.key = fullKey;
    }
    return l.canvas;
  }

  constructor(
    readonly canvas: HTMLCanvasElement,
    readonly engine: Engine,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('no 2d context');
    this.ctx = ctx;
    engine.snapshotStage = (into) => {
      const g = into.getContext('2d')!;
      this.drawBase(g, performance.now());
    };
    document.fonts?.addEventListener?.('loadingdone', () => {
      clearWidthCache();
      this.fontEpoch++;
      this.layout = null;
      this.backlogCache.clear();
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
    const sp = (now - e.shakeStart) / 600;
    if (sp >= 0 && sp < 1) {
      const amp = 16 * (1 - sp) * (1 - sp);
      ctx.translate(Math.sin(now * 0.09) * amp, Math.cos(now * 0.113) * amp * 0.6);
    }
    this.drawBase(ctx, now);
    ctx.restore();
    const fp = (now - e.flashStart) / 500;
    if (fp >= 0 && fp < 1) {
      ctx.fillStyle = `rgba(255,255,255,${(1 - fp) * 0.9})`;
      ctx.fillRect(0, 0, W, H);
    }
    const opaque = e.overlay === 'backlog' || e.overlay === 'save' || e.overlay === 'load';
    if (e.screen === 'story' && !opaque) this.drawStoryUi(ctx, now);
    if (e.overlay) this.drawOverlay(ctx, now);
    if (e.toast) this.drawToast(ctx, e.toast.text);
  }

  // ------------------------------------------------------------------------------------------
  // base layer: what transitions blend (title, stage, ending card)

  drawBase(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    switch (e.screen) {
      case 'boot':
        this.drawLoading(ctx, now);
        break;
      case 'title':
        this.drawTitle(ctx, now);
        break;
      case 'story':
        this.drawStage(ctx, now);
        break;
      case 'ending':
        this.drawStage(ctx, now);
        this.drawEnding(ctx, now);
        break;
      case 'error':
        this.drawError(ctx);
        break;
    }
    const t = e.transition;
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

  private drawBackground(ctx: CanvasRenderingContext2D, id: string | null): void {
    const e = this.engine;
    const bg = id ? e.assets?.background(id) : undefined;
    if (bg) {
      ctx.drawImage(bg, 0, 0);
      return;
    }
    if (!id) {
      ctx.fillStyle = '#000';
      ctx.fillRect(0, 0, W, H);
      return;
    }
    // a background that is missing: a quiet gradient instead of a hole
    const g = ctx.createLinearGradient(0, 0, 0, H);
    g.addColorStop(0, '#23284a');
    g.addColorStop(1, '#0d0f1f');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
  }

  private drawStage(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    void now;
    const behind = [...e.weather.values()].filter((w) => w.behindCharacters);
    if (behind.length) {
      this.drawBackground(ctx, e.scene);
      for (const w of behind) w.draw(ctx);
      this.drawCharacters(ctx);
    } else {
      // background + characters change only on tags: one cached layer
      const key = `${e.scene}|${e.line?.speaker ?? ''}|${e.chars.map((c) => `${c.id}/${c.expr}/${c.pos}`).join(',')}`;
      ctx.drawImage(
        this.layer('stage', key, W, H, (g) => {
          this.drawBackground(g, e.scene);
          this.drawCharacters(g);
        }),
        0,
        0,
      );
    }
    for (const w of e.weather.values()) if (!w.behindCharacters) w.draw(ctx);
  }

  private drawCharacters(ctx: CanvasRenderingContext2D): void {
    const e = this.engine;
    const speaker = e.line?.speaker ?? null;
    const speakerShown = !!speaker && e.chars.some((c) => c.id === speaker);
    const order = [...e.chars].sort((a, b) => (a.id === speaker ? 1 : 0) - (b.id === speaker ? 1 : 0));
    for (const c of order) {
      const cx = POS_X[c.pos];
      const dim = speakerShown && c.id !== speaker;
      const sprite = e.assets?.sprite(c.id, c.expr);
      if (sprite) {
        ctx.drawImage(dim ? sprite.dim : sprite.normal, Math.round(cx - sprite.width / 2), H - sprite.height + 8);
      } else {
        // no art yet: a soft silhouette in the character's colour
        const col = e.game?.characters[c.id]?.color ?? '#8899cc';
        ctx.save();
        ctx.globalAlpha = dim ? 0.55 : 0.85;
        ctx.fillStyle = col;
        ctx.beginPath();
        ctx.arc(cx, 250, 80, 0, Math.PI * 2);
        ctx.fill();
        rr(ctx, cx - 130, 340, 260, 400, 110);
        ctx.fill();
        ctx.restore();
      }
    }
  }

  private drawLoading(ctx: CanvasRenderingContext2D, now: number): void {
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    ctx.font = font(18, 400);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'alphabetic';
    const dots = '.'.repeat(1 + (Math.floor(now / 400) % 3));
    ctx.fillText(`NOW LOADING${dots}`, W - 40, H - 36);
    ctx.textAlign = 'left';
  }

  private drawError(ctx: CanvasRenderingContext2D): void {
    ctx.fillStyle = '#0b0d1a';
    ctx.fillRect(0, 0, W, H);
    ctx.textAlign = 'center';
    ctx.fillStyle = '#fff';
    ctx.font = font(34, 700);
    ctx.fillText('ゲームを読み込めませんでした', W / 2, H / 2 - 20);
    ctx.font = font(18, 400);
    ctx.fillStyle = 'rgba(255,255,255,0.6)';
    ctx.fillText(ellipsize(ctx, this.engine.error ?? '', W - 200), W / 2, H / 2 + 30);
    ctx.textAlign = 'left';
  }

  private drawTitle(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    const bgId = e.titleBackground();
    const reached = e.endingsReached.size;
    const key = `${bgId}|${e.title}|${reached}`;
    ctx.drawImage(this.layer('title', key, W, H, (g) => this.drawTitleStatic(g, bgId)), 0, 0);
    e.titleWeather?.draw(ctx);
    for (const b of layoutButtons(e)) this.drawButton(ctx, b, now);
  }

  private drawTitleStatic(ctx: CanvasRenderingContext2D, bgId: string | null): void {
    const e = this.engine;
    if (bgId) this.drawBackground(ctx, bgId);
    else {
      // no art: a dusk gradient
      const sky = ctx.createLinearGradient(0, 0, 0, H);
      sky.addColorStop(0, '#1d2452');
      sky.addColorStop(0.55, '#6b4a86');
      sky.addColorStop(1, '#e48aa2');
      ctx.fillStyle = sky;
      ctx.fillRect(0, 0, W, H);
    }
    // darken towards the bottom so the title and buttons read on any art
    const g = ctx.createLinearGradient(0, 0, 0, H);
    g.addColorStop(0, 'rgba(8,10,28,0.25)');
    g.addColorStop(0.45, 'rgba(8,10,28,0.1)');
    g.addColorStop(1, 'rgba(8,10,28,0.78)');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
    // a soft band behind the title block, whatever the art has there
    const band = ctx.createLinearGradient(0, 160, 0, 420);
    band.addColorStop(0, 'rgba(8,10,28,0)');
    band.addColorStop(0.3, 'rgba(8,10,28,0.42)');
    band.addColorStop(0.75, 'rgba(8,10,28,0.42)');
    band.addColorStop(1, 'rgba(8,10,28,0)');
    ctx.fillStyle = band;
    ctx.fillRect(0, 160, W, 260);

    ctx.save();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    const reading = typeof e.meta.reading === 'string' ? e.meta.reading : '';
    if (reading) {
      ctx.font = font(20, 400);
      ctx.letterSpacing = '6px';
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillText(reading, W / 2, 224);
      ctx.letterSpacing = '0px';
    }
    let size = 84;
    ctx.font = font(size, 700);
    while (ctx.measureText(e.title).width > W - 160 && size > 40) {
      size -= 4;
      ctx.font = font(size, 700);
    }
    ctx.shadowColor = 'rgba(255, 120, 170, 0.75)';
    ctx.shadowBlur = 28;
    ctx.fillStyle = '#ffffff';
    ctx.fillText(e.title, W / 2, 320);
    ctx.shadowBlur = 0;
    ctx.strokeStyle = 'rgba(255,255,255,0.55)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(W / 2 - 180, 352);
    ctx.lineTo(W / 2 + 180, 352);
    ctx.stroke();
    ctx.font = font(14, 400);
    ctx.fillStyle = 'rgba(255,255,255,0.55)';
    ctx.textAlign = 'right';
    const total = Object.keys(e.game?.endings ?? {}).length;
    if (total) ctx.fillText(`エンディング ${e.endingsReached.size} / ${total}`, W - 28, H - 24);
    ctx.textAlign = 'left';
    if (e.meta.brand) ctx.fillText(`© ${String(e.meta.brand)}`, 28, H - 24);
    ctx.restore();
  }

  private drawEnding(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    const p = Math.min(1, (now - e.endingStart) / 1600);
    ctx.save();
    ctx.fillStyle = `rgba(4,5,14,${0.82 * p})`;
    ctx.fillRect(0, 0, W, H);
    ctx.globalAlpha = Math.max(0, (p - 0.3) / 0.7);
    ctx.textAlign = 'center';
    ctx.font = font(22, 400);
    ctx.letterSpacing = '10px';
    ctx.fillStyle = ACCENT_2;
    ctx.fillText(e.endingId ? '— ENDING —' : '— END —', W / 2, 270);
    ctx.letterSpacing = '0px';
    const title = e.endingTitle() ?? 'おわり';
    let size = 56;
    ctx.font = font(size, 700);
    while (ctx.measureText(title).width > W - 200 && size > 28) ctx.font = font((size -= 4), 700);
    ctx.shadowColor = 'rgba(255,134,173,0.6)';
    ctx.shadowBlur = 24;
    ctx.fillStyle = '#fff';
    ctx.fillText(title, W / 2, 360);
    ctx.shadowBlur = 0;
    const total = Object.keys(e.game?.endings ?? {}).length;
    if (total && e.endingId && e.game.endings[e.endingId] !== undefined) {
      const idx = Object.keys(e.game.endings).indexOf(e.endingId) + 1;
      ctx.font = font(18, 400);
      ctx.fillStyle = 'rgba(255,255,255,0.7)';
      ctx.fillText(`エンディング ${idx} / ${total}`, W / 2, 410);
    }
    if (now - e.endingStart > 1200) {
      ctx.globalAlpha = 0.55 + 0.45 * Math.sin(now / 400);
      ctx.font = font(18, 400);
      ctx.fillStyle = '#fff';
      ctx.fillText('クリックでタイトルに戻る', W / 2, 600);
    }
    ctx.restore();
  }

  // ------------------------------------------------------------------------------------------
  // story UI: text window, choices, quick menu

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

  private drawStoryUi(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    const fading = e.transition?.kind === 'fade';
    const line = e.line;
    const choices = e.visibleChoices();
    if (choices.length) {
      ctx.fillStyle = 'rgba(6,8,20,0.32)';
      ctx.fillRect(0, 0, W, H);
    }
    if (!e.windowHidden && !fading && line && line.text) {
      const { x, y, w, h } = TEXT_WINDOW;
      ctx.save();
      ctx.drawImage(
        this.layer('window', 'w', w + 4, h + 4, (g) => {
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
        }),
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
      let left = e.visibleCount(now);
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
      if (!e.typing(now) && !choices.length) {
        const bob = Math.sin(now / 220) * 3;
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
      if (b.kind === 'choice') this.drawButton(ctx, b, now);
      else if (b.kind === 'quick' && !fading && line?.text) this.drawQuick(ctx, b);
    }
    if (e.auto || e.skipping()) {
      const label = e.auto ? 'AUTO' : 'SKIP ▶▶';
      ctx.save();
      ctx.font = font(18, 700);
      const bw = ctx.measureText(label).width + 36;
      ctx.globalAlpha = 0.75 + 0.25 * Math.sin(now / 300);
      ctx.fillStyle = 'rgba(10,12,30,0.7)';
      rr(ctx, W - bw - 24, 20, bw, 36, 18);
      ctx.fill();
      ctx.fillStyle = ACCENT;
      ctx.textBaseline = 'middle';
      ctx.fillText(label, W - bw - 6, 39);
      ctx.restore();
    }
  }

  private drawQuick(ctx: CanvasRenderingContext2D, b: Button): void {
    const e = this.engine;
    const hover = e.pointerX >= b.x && e.pointerX <= b.x + b.w && e.pointerY >= b.y && e.pointerY <= b.y + b.h;
    ctx.save();
    ctx.font = font(15, 700);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    if (hover && b.enabled) {
      ctx.fillStyle = 'rgba(255,255,255,0.14)';
      rr(ctx, b.x, b.y, b.w, b.h, 8);
      ctx.fill();
    }
    ctx.fillStyle = !b.enabled ? 'rgba(255,255,255,0.28)' : b.active ? ACCENT : hover ? '#fff' : 'rgba(255,255,255,0.78)';
    ctx.fillText(b.label, b.x + b.w / 2, b.y + b.h / 2 + 1);
    ctx.restore();
  }

  /** A large button (title, choice, menu, confirm, back). */
  private drawButton(ctx: CanvasRenderingContext2D, b: Button, now: number): void {
    const e = this.engine;
    const focused = b.id === e.focusId && b.enabled;
    ctx.save();
    const r = b.kind === 'choice' ? 14 : b.h / 2;
    if (focused) {
      const g = ctx.createLinearGradient(b.x, 0, b.x + b.w, 0);
      g.addColorStop(0, 'rgba(255,134,173,0.95)');
      g.addColorStop(1, 'rgba(255,176,130,0.95)');
      ctx.fillStyle = g;
      ctx.shadowColor = 'rgba(255,134,173,0.6)';
      ctx.shadowBlur = 18 + 6 * Math.sin(now / 300);
    } else {
      ctx.fillStyle = b.enabled ? 'rgba(16,20,46,0.82)' : 'rgba(16,20,46,0.45)';
    }
    rr(ctx, b.x, b.y, b.w, b.h, r);
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.strokeStyle = focused ? 'rgba(255,255,255,0.9)' : 'rgba(255,255,255,0.35)';
    ctx.lineWidth = 1.5;
    ctx.stroke();
    const size = b.kind === 'choice' ? (b.h < 60 ? 23 : 26) : b.kind === 'title' ? 26 : 22;
    ctx.font = font(size, b.kind === 'choice' ? 400 : 700);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = !b.enabled ? 'rgba(255,255,255,0.35)' : '#ffffff';
    if (b.kind === 'title') ctx.letterSpacing = '4px';
    let label = ellipsize(ctx, b.label, b.w - 40);
    if (b.active) label += '  ON';
    ctx.fillText(label, b.x + b.w / 2, b.y + b.h / 2 + 1);
    ctx.restore();
  }

  // ------------------------------------------------------------------------------------------
  // overlays

  private drawOverlay(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    ctx.save();
    ctx.fillStyle = e.overlay === 'menu' || e.overlay === 'confirm' ? 'rgba(6,8,22,0.66)' : 'rgba(6,8,22,0.86)';
    ctx.fillRect(0, 0, W, H);
    ctx.restore();
    switch (e.overlay) {
      case 'menu': {
        ctx.save();
        ctx.fillStyle = PANEL;
        rr(ctx, 640 - 250, 60, 500, 600, 24);
        ctx.fill();
        ctx.strokeStyle = 'rgba(255,255,255,0.2)';
        ctx.stroke();
        ctx.font = font(30, 700);
        ctx.fillStyle = '#fff';
        ctx.textAlign = 'center';
        ctx.letterSpacing = '8px';
        ctx.fillText('メニュー', 640, 118);
        ctx.restore();
        for (const b of layoutButtons(e)) this.drawButton(ctx, b, now);
        break;
      }
      case 'save':
      case 'load':
        this.drawSlots(ctx, now);
        break;
      case 'backlog':
        this.drawBacklog(ctx, now);
        break;
      case 'confirm': {
        ctx.save();
        ctx.fillStyle = PANEL;
        rr(ctx, 640 - 280, 240, 560, 240, 24);
        ctx.fill();
        ctx.strokeStyle = 'rgba(255,255,255,0.25)';
        ctx.stroke();
        ctx.font = font(26, 700);
        ctx.fillStyle = '#fff';
        ctx.textAlign = 'center';
        ctx.fillText(e.confirm?.message ?? '', 640, 330);
        ctx.restore();
        for (const b of layoutButtons(e)) this.drawButton(ctx, b, now);
        break;
      }
    }
  }

  private drawHeading(ctx: CanvasRenderingContext2D, text: string, sub: string): void {
    ctx.save();
    ctx.font = font(40, 700);
    ctx.fillStyle = '#fff';
    ctx.letterSpacing = '6px';
    ctx.fillText(text, 64, 96);
    ctx.letterSpacing = '0px';
    const w = ctx.measureText(text).width;
    ctx.font = font(16, 400);
    ctx.fillStyle = ACCENT_2;
    ctx.letterSpacing = '4px';
    ctx.fillText(sub, 64 + w + 30, 96);
    ctx.restore();
  }

  private drawSlots(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    const saving = e.overlay === 'save';
    this.drawHeading(ctx, saving ? 'セーブ' : 'ロード', saving ? 'SAVE' : 'LOAD');
    for (const b of layoutButtons(e)) {
      if (b.kind !== 'slot') {
        this.drawButton(ctx, b, now);
        continue;
      }
      const slot = Number(b.id.slice(5));
      const s = e.saves.get(slot);
      const r = slotRect(slot - 1);
      const focused = e.focusId === b.id && b.enabled;
      ctx.save();
      ctx.fillStyle = 'rgba(18,22,48,0.92)';
      rr(ctx, r.x, r.y, r.w, r.h, 16);
      ctx.fill();
      ctx.lineWidth = focused ? 3 : 1.5;
      ctx.strokeStyle = focused ? ACCENT : 'rgba(255,255,255,0.25)';
      ctx.stroke();
      const tx = r.x + 16;
      const ty = r.y + 16;
      const tw = r.w - 32;
      const th = 132;
      ctx.save();
      rr(ctx, tx, ty, tw, th, 10);
      ctx.clip();
      const bg = s?.scene ? e.assets.background(s.scene) : undefined;
      if (bg) {
        const sh = (W * th) / tw;
        ctx.drawImage(bg, 0, (H - sh) / 2, W, sh, tx, ty, tw, th);
      } else {
        ctx.fillStyle = 'rgba(255,255,255,0.06)';
        ctx.fillRect(tx, ty, tw, th);
        ctx.font = font(18, 700);
        ctx.fillStyle = 'rgba(255,255,255,0.35)';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.letterSpacing = '4px';
        ctx.fillText('NO DATA', tx + tw / 2, ty + th / 2);
      }
      ctx.restore();
      ctx.font = font(16, 700);
      ctx.fillStyle = ACCENT_2;
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(`No.${slot}`, tx, ty + th + 26);
      if (s) {
        ctx.font = font(15, 400);
        ctx.fillStyle = 'rgba(255,255,255,0.75)';
        const d = new Date(s.savedAt);
        const when = dateFmt && !Number.isNaN(d.getTime()) ? dateFmt.format(d) : s.savedAt;
        ctx.textAlign = 'right';
        ctx.fillText(when, tx + tw, ty + th + 26);
        ctx.textAlign = 'left';
        ctx.fillStyle = '#fff';
        ctx.font = font(16, 400);
        ctx.fillText(ellipsize(ctx, s.text || '（選択肢）', tw), tx, ty + th + 54);
      }
      ctx.restore();
    }
  }

  private drawBacklog(ctx: CanvasRenderingContext2D, now: number): void {
    const e = this.engine;
    this.drawHeading(ctx, 'バックログ', 'BACKLOG');
    const top = 130;
    const bottom = 636;
    const textW = 1000;
    const x = 140;
    ctx.save();
    ctx.font = font(24, 400);
    const blocks: { entry: (typeof e.backlog)[number]; lines: string[]; h: number }[] = [];
    let total = 0;
    for (const entry of e.backlog) {
      let lines = this.backlogCache.get(entry.text);
      if (!lines) {
        lines = wrapText(ctx, entry.text, textW);
        this.backlogCache.set(entry.text, lines);
      }
      const h = (entry.name ? 30 : 0) + lines.length * 36 + 22;
      blocks.push({ entry, lines, h });
      total += h;
    }
    const viewH = bottom - top;
    e.backlogMaxScroll = Math.max(0, total - viewH);
    if (e.backlogScroll > e.backlogMaxScroll) e.backlogScroll = e.backlogMaxScroll;
    ctx.beginPath();
    ctx.rect(0, top, W, viewH);
    ctx.clip();
    let y = top - e.backlogScroll + Math.max(0, viewH - total);
    for (const b of blocks) {
      if (y + b.h >= top && y <= bottom) {
        let ly = y;
        if (b.entry.name) {
          ctx.font = font(19, 700);
          ctx.fillStyle = b.entry.color ?? ACCENT_2;
          ctx.fillText(b.entry.name, x, ly + 22);
          ly += 30;
        }
        ctx.font = font(24, 400);
        ctx.fillStyle = b.entry.choice ? ACCENT : 'rgba(255,255,255,0.92)';
        for (const l of b.lines) {
          ctx.fillText(b.entry.choice ? `▶ ${l}` : l, x, ly + 28);
          ly += 36;
        }
      }
      y += b.h;
    }
    ctx.restore();
    if (e.backlogMaxScroll > 0) {
      const barH = Math.max(40, (viewH * viewH) / total);
      const barY = top + ((viewH - barH) * e.backlogScroll) / e.backlogMaxScroll;
      ctx.fillStyle = 'rgba(255,255,255,0.12)';
      rr(ctx, 1200, top, 6, viewH, 3);
      ctx.fill();
      ctx.fillStyle = ACCENT;
      rr(ctx, 1200, barY, 6, barH, 3);
      ctx.fill();
    }
    ctx.save();
    ctx.font = font(15, 400);
    ctx.fillStyle = 'rgba(255,255,255,0.55)';
    ctx.fillText('ホイール・↑↓でスクロール　クリック・Escで閉じる', 140, 682);
    ctx.restore();
    for (const b of layoutButtons(e)) this.drawButton(ctx, b, now);
  }

  private drawToast(ctx: CanvasRenderingContext2D, text: string): void {
    ctx.save();
    ctx.font = font(20, 700);
    const w = ctx.measureText(text).width + 56;
    ctx.fillStyle = 'rgba(12,14,34,0.88)';
    rr(ctx, (W - w) / 2, 22, w, 48, 24);
    ctx.fill();
    ctx.strokeStyle = ACCENT;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    ctx.fillStyle = '#fff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, W / 2, 47);
    ctx.restore();
  }
}
