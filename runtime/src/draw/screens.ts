/**
 * The full screens that are not the story: the loading screen, the error screen, the title (its
 * static part cached as a layer; weather and buttons drawn over it each frame) and the ending card
 * over the last picture.
 */
import type { Engine } from '../engine';
import { font } from '../text';
import { H, W } from '../types';
import { layoutButtons } from '../ui';
import { drawButton } from './buttons';
import { ACCENT_2, ellipsize, idleWave, type Layers } from './common';
import { drawBackground } from './stage';

export function drawLoading(ctx: CanvasRenderingContext2D, now: number): void {
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

export function drawError(ctx: CanvasRenderingContext2D, error: string | null): void {
  ctx.fillStyle = '#0b0d1a';
  ctx.fillRect(0, 0, W, H);
  ctx.textAlign = 'center';
  ctx.fillStyle = '#fff';
  ctx.font = font(34, 700);
  ctx.fillText('ゲームを読み込めませんでした', W / 2, H / 2 - 20);
  ctx.font = font(18, 400);
  ctx.fillStyle = 'rgba(255,255,255,0.6)';
  ctx.fillText(ellipsize(ctx, error ?? '', W - 200), W / 2, H / 2 + 30);
  ctx.textAlign = 'left';
}

export function drawTitle(ctx: CanvasRenderingContext2D, e: Engine, layers: Layers, now: number): void {
  const bgId = e.titleBackground();
  const reached = e.endingsReached.size;
  const key = `${bgId}|${e.title}|${reached}`;
  ctx.drawImage(
    layers.get('title', key, W, H, (g) => drawTitleStatic(g, e, bgId)),
    0,
    0,
  );
  e.stage.titleWeather?.draw(ctx);
  for (const b of layoutButtons(e)) drawButton(ctx, b, e.menus.focusId, now);
}

function drawTitleStatic(ctx: CanvasRenderingContext2D, e: Engine, bgId: string | null): void {
  if (bgId) drawBackground(ctx, e.assets, bgId);
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

export function drawEnding(ctx: CanvasRenderingContext2D, e: Engine, now: number): void {
  const endingId = e.flow.endingId;
  const p = Math.min(1, (now - e.endingStart) / 1600);
  ctx.save();
  ctx.fillStyle = `rgba(4,5,14,${0.82 * p})`;
  ctx.fillRect(0, 0, W, H);
  ctx.globalAlpha = Math.max(0, (p - 0.3) / 0.7);
  ctx.textAlign = 'center';
  ctx.font = font(22, 400);
  ctx.letterSpacing = '10px';
  ctx.fillStyle = ACCENT_2;
  ctx.fillText(endingId ? '— ENDING —' : '— END —', W / 2, 270);
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
  if (total && endingId && e.game.endings[endingId] !== undefined) {
    const idx = Object.keys(e.game.endings).indexOf(endingId) + 1;
    ctx.font = font(18, 400);
    ctx.fillStyle = 'rgba(255,255,255,0.7)';
    ctx.fillText(`エンディング ${idx} / ${total}`, W / 2, 410);
  }
  if (now - e.endingStart > 1200) {
    ctx.globalAlpha = 0.55 + 0.45 * idleWave(now, 400, 1);
    ctx.font = font(18, 400);
    ctx.fillStyle = '#fff';
    ctx.fillText('クリックでタイトルに戻る', W / 2, 600);
  }
  ctx.restore();
}
