/**
 * The overlays (menus.ts) drawn over the play: the menu, the yes/no confirm, the save/load slots
 * (a thumbnail of each save's scene, its date and line), the backlog (wrapped entries, cached per
 * text, scrolled with a bar), and the toast.
 */
import type { Engine } from '../engine';
import { font, wrapText } from '../text';
import { H, W, type BacklogEntry } from '../types';
import { layoutButtons, slotRect } from '../ui';
import { drawButton } from './buttons';
import { ACCENT, ACCENT_2, PANEL, dateFmt, ellipsize, rr } from './common';

export class OverlayUi {
  private backlogCache = new Map<string, string[]>();

  /** Fonts changed: widths change, wrap the backlog again. */
  reset(): void {
    this.backlogCache.clear();
  }

  draw(ctx: CanvasRenderingContext2D, e: Engine, now: number): void {
    const overlay = e.overlay;
    ctx.save();
    ctx.fillStyle = overlay === 'menu' || overlay === 'confirm' ? 'rgba(6,8,22,0.66)' : 'rgba(6,8,22,0.86)';
    ctx.fillRect(0, 0, W, H);
    ctx.restore();
    switch (overlay) {
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
        for (const b of layoutButtons(e)) drawButton(ctx, b, e.menus.focusId, now);
        break;
      }
      case 'save':
      case 'load':
        drawSlots(ctx, e, now);
        break;
      case 'backlog':
        this.drawBacklog(ctx, e, now);
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
        ctx.fillText(e.menus.confirm?.message ?? '', 640, 330);
        ctx.restore();
        for (const b of layoutButtons(e)) drawButton(ctx, b, e.menus.focusId, now);
        break;
      }
    }
  }

  private drawBacklog(ctx: CanvasRenderingContext2D, e: Engine, now: number): void {
    const m = e.menus;
    drawHeading(ctx, 'バックログ', 'BACKLOG');
    const top = 130;
    const bottom = 636;
    const textW = 1000;
    const x = 140;
    ctx.save();
    ctx.font = font(24, 400);
    const blocks: { entry: BacklogEntry; lines: string[]; h: number }[] = [];
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
    m.backlogMaxScroll = Math.max(0, total - viewH);
    if (m.backlogScroll > m.backlogMaxScroll) m.backlogScroll = m.backlogMaxScroll;
    ctx.beginPath();
    ctx.rect(0, top, W, viewH);
    ctx.clip();
    let y = top - m.backlogScroll + Math.max(0, viewH - total);
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
    if (m.backlogMaxScroll > 0) {
      const barH = Math.max(40, (viewH * viewH) / total);
      const barY = top + ((viewH - barH) * m.backlogScroll) / m.backlogMaxScroll;
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
    for (const b of layoutButtons(e)) drawButton(ctx, b, m.focusId, now);
  }
}

function drawHeading(ctx: CanvasRenderingContext2D, text: string, sub: string): void {
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

function drawSlots(ctx: CanvasRenderingContext2D, e: Engine, now: number): void {
  const saving = e.overlay === 'save';
  drawHeading(ctx, saving ? 'セーブ' : 'ロード', saving ? 'SAVE' : 'LOAD');
  for (const b of layoutButtons(e)) {
    if (b.kind !== 'slot') {
      drawButton(ctx, b, e.menus.focusId, now);
      continue;
    }
    const slot = Number(b.id.slice(5));
    const s = e.saves.get(slot);
    const r = slotRect(slot - 1);
    const focused = e.menus.focusId === b.id && b.enabled;
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
    // the middle band of the scene's background, as a thumbnail of its own (art.ts)
    const thumb = s?.scene ? e.assets.art.thumbnail(s.scene, tw, th) : undefined;
    if (thumb) {
      ctx.drawImage(thumb, tx, ty);
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

export function drawToast(ctx: CanvasRenderingContext2D, text: string): void {
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
