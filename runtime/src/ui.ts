/**
 * Layout of everything clickable: one list of buttons per screen/overlay, from a narrow view of
 * the engine's state (UiView: only what decides which buttons exist, are enabled or lit). The
 * engine, the input handler and the renderer all lay out through here.
 */
import type { Choice, Overlay, Screen } from './types';

/** What the layout reads. The Engine satisfies it; nothing here knows the Engine class. */
export interface UiView {
  readonly screen: Screen;
  readonly overlay: Overlay | null;
  readonly auto: boolean;
  readonly skip: boolean;
  readonly windowHidden: boolean;
  /** The filled save slots (1-based numbers). */
  readonly saves: { readonly size: number; has(slot: number): boolean };
  readonly backlog: { readonly length: number };
  /** The choices shown now (none while the line is still typing). */
  visibleChoices(): readonly Choice[];
}

export interface Button {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  label: string;
  enabled: boolean;
  /** Keyboard focus moves among these (quick-menu buttons are pointer only). */
  focusable: boolean;
  /** Shown as switched on (auto / skip). */
  active?: boolean;
  kind: 'title' | 'choice' | 'quick' | 'menu' | 'slot' | 'confirm' | 'back';
}

export const SLOT_COUNT = 6;

export const TEXT_WINDOW = { x: 40, y: 484, w: 1200, h: 222 };

export function hit(b: Button, x: number, y: number): boolean {
  return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
}

export function slotRect(i: number): { x: number; y: number; w: number; h: number } {
  const col = i % 3;
  const row = Math.floor(i / 3);
  return { x: 60 + col * 400, y: 140 + row * 250, w: 360, h: 226 };
}

/** The buttons of the layer that currently takes input (topmost overlay first). */
export function layoutButtons(e: UiView): Button[] {
  const out: Button[] = [];
  if (e.screen === 'title' && !e.overlay) {
    const labels: [string, string, boolean][] = [
      ['title:new', 'はじめから', true],
      ['title:continue', 'つづきから', e.saves.size > 0],
    ];
    labels.forEach(([id, label, enabled], i) => {
      out.push({ id, label, enabled, focusable: enabled, x: 640 - 170, y: 468 + i * 74, w: 340, h: 58, kind: 'title' });
    });
    return out;
  }
  switch (e.overlay) {
    case 'menu': {
      const items: [string, string, boolean, boolean?][] = [
        ['menu:save', 'セーブ', e.screen === 'story'],
        ['menu:load', 'ロード', e.saves.size > 0],
        ['menu:backlog', 'バックログ', e.backlog.length > 0],
        ['menu:auto', 'オート', true, e.auto],
        ['menu:skip', 'スキップ', true, e.skip],
        ['menu:title', 'タイトルに戻る', true],
        ['menu:close', 'ゲームに戻る', true],
      ];
      items.forEach(([id, label, enabled, active], i) => {
        out.push({ id, label, enabled, active, focusable: enabled, x: 640 - 200, y: 150 + i * 66, w: 400, h: 54, kind: 'menu' });
      });
      return out;
    }
    case 'save':
    case 'load': {
      for (let i = 0; i < SLOT_COUNT; i++) {
        const r = slotRect(i);
        const filled = e.saves.has(i + 1);
        const enabled = e.overlay === 'save' || filled;
        out.push({ id: `slot:${i + 1}`, label: `${i + 1}`, enabled, focusable: enabled, ...r, kind: 'slot' });
      }
      out.push({ id: 'back', label: '戻る', enabled: true, focusable: true, x: 1080, y: 648, w: 150, h: 48, kind: 'back' });
      return out;
    }
    case 'confirm': {
      out.push({ id: 'confirm:yes', label: 'はい', enabled: true, focusable: true, x: 640 - 190, y: 390, w: 170, h: 54, kind: 'confirm' });
      out.push({ id: 'confirm:no', label: 'いいえ', enabled: true, focusable: true, x: 640 + 20, y: 390, w: 170, h: 54, kind: 'confirm' });
      return out;
    }
    case 'backlog': {
      out.push({ id: 'back', label: '閉じる', enabled: true, focusable: true, x: 1080, y: 652, w: 150, h: 46, kind: 'back' });
      return out;
    }
    default:
      break;
  }
  if (e.screen === 'story') {
    const choices = e.visibleChoices();
    const n = choices.length;
    if (n) {
      const h = n > 4 ? 54 : 62;
      const gap = n > 4 ? 12 : 18;
      const total = n * h + (n - 1) * gap;
      const top = Math.max(16, (470 - total) / 2);
      choices.forEach((c, i) => {
        out.push({ id: `choice:${c.index}`, label: c.text, enabled: true, focusable: true, x: 640 - 390, y: top + i * (h + gap), w: 780, h, kind: 'choice' });
      });
    }
    if (!e.windowHidden) {
      const quick: [string, string, boolean, boolean?][] = [
        ['quick:log', 'ログ', e.backlog.length > 0],
        ['quick:auto', 'オート', true, e.auto],
        ['quick:skip', 'スキップ', true, e.skip],
        ['quick:save', 'セーブ', true],
        ['quick:load', 'ロード', e.saves.size > 0],
        ['quick:menu', 'メニュー', true],
      ];
      const w = 84;
      let x = TEXT_WINDOW.x + TEXT_WINDOW.w - quick.length * w - 14;
      for (const [id, label, enabled, active] of quick) {
        out.push({ id, label, enabled, active, focusable: false, x, y: TEXT_WINDOW.y + TEXT_WINDOW.h - 36, w: w - 6, h: 28, kind: 'quick' });
        x += w;
      }
    }
  }
  return out;
}
