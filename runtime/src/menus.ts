/**
 * The overlays over the play (menu, save/load slots, backlog, confirm) and the toast: which one is
 * open and where closing it returns, the keyboard focus, the backlog's scroll. Opening the first
 * overlay pauses the typing and the auto timer; closing the last resumes them. It works on a
 * narrow host (MenuHost), not on the Engine class.
 */
import type { Reader } from './reader';
import { ensureGlyphs } from './text';
import type { Choice, Overlay } from './types';
import { layoutButtons, type UiView } from './ui';

/** What the menus read and change of the engine. */
export interface MenuHost extends UiView {
  readonly choices: readonly Choice[];
  windowHidden: boolean;
  ctrlSkip: boolean;
  dirty: boolean;
  readonly reader: Pick<Reader, 'pause' | 'resume' | 'dropPause'>;
}

export interface Confirm {
  message: string;
  action: () => void;
}

export class Menus {
  overlay: Overlay | null = null;
  /** Where the open overlay returns to when closed (the menu, for slots opened from it). */
  overlayReturn: Overlay | null = null;
  confirm: Confirm | null = null;
  /** The focused button's id (keyboard and hover). */
  focusId: string | null = null;
  toast: { text: string; until: number } | null = null;
  backlogScroll = 0;
  /** Set by the renderer from the backlog's laid-out height. */
  backlogMaxScroll = 0;

  constructor(private readonly host: MenuHost) {}

  open(o: Overlay, returnTo: Overlay | null = null): void {
    const h = this.host;
    if (o === 'save' && h.screen !== 'story') return;
    if (o === 'backlog') this.backlogScroll = Number.MAX_SAFE_INTEGER;
    if (!this.overlay) h.reader.pause(performance.now());
    this.overlay = o;
    this.overlayReturn = returnTo;
    h.ctrlSkip = false;
    const first = layoutButtons(h).find((b) => b.focusable && b.enabled);
    this.focusId = o === 'menu' ? 'menu:close' : (first?.id ?? null);
    h.dirty = true;
  }

  close(): void {
    const h = this.host;
    const ret = this.overlayReturn;
    this.overlay = null;
    this.overlayReturn = null;
    this.confirm = null;
    if (ret) return this.open(ret);
    h.reader.resume(performance.now());
    this.focusId = h.screen === 'title' ? 'title:new' : h.choices.length ? `choice:${h.choices[0].index}` : null;
    h.dirty = true;
  }

  /** Right click / Escape: close the top overlay, or show the hidden text window, or open the menu. */
  back(): void {
    const h = this.host;
    if (this.overlay) return this.close();
    if (h.screen === 'story') {
      if (h.windowHidden) {
        h.windowHidden = false;
        return;
      }
      this.open('menu');
    }
  }

  /** A yes/no question over `returnTo` (where いいえ goes back to). */
  ask(message: string, action: () => void, returnTo: Overlay, focusId: string): void {
    this.confirm = { message, action };
    this.overlayReturn = returnTo;
    this.overlay = 'confirm';
    this.focusId = focusId;
  }

  /** はい: every overlay closes and the action runs. */
  accept(): void {
    if (!this.confirm) return;
    const action = this.confirm.action;
    this.confirm = null;
    this.overlay = null;
    this.overlayReturn = null;
    this.host.reader.dropPause();
    action();
  }

  scrollBacklog(dy: number): void {
    this.backlogScroll = Math.max(0, Math.min(this.backlogMaxScroll, this.backlogScroll + dy));
  }

  showToast(text: string, ms = 2200): void {
    this.toast = { text, until: performance.now() + ms };
    ensureGlyphs(text, () => (this.host.dirty = true));
    this.host.dirty = true;
  }

  /** Called every frame: an expired toast goes. */
  update(now: number): void {
    if (this.toast && now > this.toast.until) {
      this.toast = null;
      this.host.dirty = true;
    }
  }
}
