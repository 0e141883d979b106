/**
 * Drawing buttons (ui.ts lays them out): the large ones (title, choice, menu, confirm, back) with
 * a glowing focus, and the text window's small quick-menu buttons, lit on hover.
 */
import { font } from '../text';
import type { Button } from '../ui';
import { ACCENT, ellipsize, idleWave, rr } from './common';

/** A large button; `focusId` is the focused button's id. */
export function drawButton(ctx: CanvasRenderingContext2D, b: Button, focusId: string | null, now: number): void {
  const focused = b.id === focusId && b.enabled;
  ctx.save();
  const r = b.kind === 'choice' ? 14 : b.h / 2;
  if (focused) {
    const g = ctx.createLinearGradient(b.x, 0, b.x + b.w, 0);
    g.addColorStop(0, 'rgba(255,134,173,0.95)');
    g.addColorStop(1, 'rgba(255,176,130,0.95)');
    ctx.fillStyle = g;
    ctx.shadowColor = 'rgba(255,134,173,0.6)';
    ctx.shadowBlur = 18 + 6 * idleWave(now, 300, 1);
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

/** A quick-menu button; the pointer (canvas coordinates) lights the one it is over. */
export function drawQuick(ctx: CanvasRenderingContext2D, b: Button, pointerX: number, pointerY: number): void {
  const hover = pointerX >= b.x && pointerX <= b.x + b.w && pointerY >= b.y && pointerY <= b.y + b.h;
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
