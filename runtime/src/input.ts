/**
 * Player input: one streaming-protocol input message (pointer, key, wheel; already validated by
 * parsePlayerMessage) decoded here, in one place, into what it does on the current screen —
 * hover/focus, activating a button, advancing, opening and scrolling overlays — and applied
 * through a narrow interface (InputTarget), the way neko's server/internal/webrtc/handler.go
 * decodes its data channel and applies it through its DesktopManager. Nothing here knows the
 * Engine class; the page (main.ts) owns the handler and feeds it applyInput's messages.
 */
import type { InputMessage, NamedKey } from '../../lib/streaming/messages';
import type { Menus } from './menus';
import { H, W } from './types';
import { hit, layoutButtons, type Button, type UiView } from './ui';

/** What input reads and does. The Engine satisfies it. */
export interface InputTarget extends UiView {
  /** Input before ready (the first screen is not shown yet) is dropped. */
  readonly ready: boolean;
  dirty: boolean;
  /** Control held: skip while it is down. */
  ctrlSkip: boolean;
  windowHidden: boolean;
  /** The pointer in canvas coordinates (the quick menu's hover). */
  pointerX: number;
  pointerY: number;
  readonly menus: Pick<
    Menus,
    'confirm' | 'focusId' | 'backlogScroll' | 'backlogMaxScroll' | 'open' | 'close' | 'back' | 'ask' | 'accept' | 'scrollBacklog'
  >;
  /** Any input: the AudioContext may start (autoplay policies). */
  wake(): void;
  /** Click / Enter while reading: finish the transition and the line, or go on. */
  advance(): void;
  endingClicked(): void;
  choose(index: number): void;
  newGame(): void;
  showTitle(): void;
  setAuto(on: boolean): void;
  setSkip(on: boolean): void;
  saveToSlot(slot: number): void;
  loadSlot(slot: number): void;
}

export class InputHandler {
  private lastWheelAdvance = 0;

  constructor(private readonly t: InputTarget) {}

  /**
   * Applies one input message of the streaming protocol (already validated). A press, a wheel
   * step and Control's release redraw; a pointer's move or release redraws only when the hover
   * changes (pointer()), and any other key's release changes nothing, so it draws nothing: each
   * frame is ~8 ms of the host's encoder (docs/performance.md "fourteenth round"), and a player's
   * every press comes with its release.
   */
  apply(msg: InputMessage): void {
    const t = this.t;
    t.wake();
    if (!t.ready) return;
    if (msg.type === 'wheel' || msg.kind === 'down' || (msg.type === 'key' && msg.key === 'Control')) t.dirty = true;
    switch (msg.type) {
      case 'pointer':
        this.pointer(msg.kind, msg.x * W, msg.y * H, msg.button ?? 0);
        break;
      case 'key':
        if (msg.kind === 'down') this.keyDown(msg.key);
        else if (msg.key === 'Control') t.ctrlSkip = false;
        break;
      case 'wheel':
        this.wheel(msg.dy);
        break;
    }
  }

  private pointer(kind: 'down' | 'up' | 'move', x: number, y: number, button: number): void {
    const t = this.t;
    t.pointerX = x;
    t.pointerY = y;
    const buttons = layoutButtons(t);
    const over = buttons.find((b) => b.enabled && hit(b, x, y));
    if (kind !== 'down') {
      // a move, or a release where the pointer now is: redraw only when the highlight changes
      // (hover over buttons)
      const before = t.menus.focusId;
      if (over && over.focusable) t.menus.focusId = over.id;
      if (t.menus.focusId !== before || buttons.some((b) => b.kind === 'quick' && hit(b, x, y)) || y > 660) t.dirty = true;
      return;
    }
    if (button === 2) {
      t.menus.back();
      return;
    }
    if (button !== 0) return;
    if (over) {
      this.activate(over);
      return;
    }
    if (buttons.some((b) => !b.enabled && hit(b, x, y))) return;
    // a click outside any button
    if (t.screen === 'ending') {
      t.endingClicked();
      return;
    }
    if (t.overlay === 'backlog') {
      t.menus.close();
      return;
    }
    if (t.overlay) return;
    if (t.screen === 'story') t.advance();
  }

  private keyDown(key: NamedKey): void {
    const t = this.t;
    const m = t.menus;
    const buttons = layoutButtons(t);
    const focusable = buttons.filter((b) => b.focusable && b.enabled);
    switch (key) {
      case 'Enter':
      case 'Space': {
        const focused = focusable.find((b) => b.id === m.focusId);
        if (focused) return this.activate(focused);
        if (t.screen === 'ending') return t.endingClicked();
        if (t.overlay === 'backlog') return m.close();
        if (t.screen === 'story' && !t.overlay) {
          if (t.visibleChoices().length && focusable[0]) return this.activate(focusable[0]);
          return t.advance();
        }
        if (focusable[0]) {
          m.focusId = focusable[0].id;
        }
        return;
      }
      case 'ArrowUp':
      case 'ArrowDown':
      case 'ArrowLeft':
      case 'ArrowRight': {
        if (t.overlay === 'backlog') {
          m.scrollBacklog(key === 'ArrowUp' ? -60 : key === 'ArrowDown' ? 60 : 0);
          return;
        }
        if (!focusable.length) {
          if (key === 'ArrowUp' && t.screen === 'story' && !t.overlay) m.open('backlog');
          return;
        }
        const i = focusable.findIndex((b) => b.id === m.focusId);
        let step = key === 'ArrowUp' || key === 'ArrowLeft' ? -1 : 1;
        if ((t.overlay === 'save' || t.overlay === 'load') && (key === 'ArrowUp' || key === 'ArrowDown')) step *= 3;
        const j = i < 0 ? (step > 0 ? 0 : focusable.length - 1) : Math.max(0, Math.min(focusable.length - 1, i + step));
        m.focusId = focusable[j].id;
        return;
      }
      case 'Escape':
      case 'Menu':
      case 'Backspace':
        if (key === 'Menu' && !t.overlay && t.screen === 'story') return m.open('menu');
        return m.back();
      case 'PageUp':
      case 'Backlog':
      case 'l':
        if (t.overlay === 'backlog') {
          if (key === 'PageUp') m.scrollBacklog(-400);
          else m.close();
          return;
        }
        if (t.screen === 'story' && !t.overlay) m.open('backlog');
        return;
      case 'PageDown':
        if (t.overlay === 'backlog') m.scrollBacklog(400);
        return;
      case 'Auto':
      case 'a':
        if (t.screen === 'story') t.setAuto(!t.auto);
        return;
      case 'Skip':
      case 's':
        if (t.screen === 'story') t.setSkip(!t.skip);
        return;
      case 'Control':
        if (t.screen === 'story' && !t.overlay) t.ctrlSkip = true;
        return;
      case 'Save':
        if (t.screen === 'story') m.open('save');
        return;
      case 'Load':
        if ((t.screen === 'story' || t.screen === 'title') && t.saves.size) m.open('load');
        return;
      case 'h':
        if (t.screen === 'story' && !t.overlay) t.windowHidden = !t.windowHidden;
        return;
      default:
        if (/^[1-9]$/.test(key)) {
          const n = Number(key);
          if (t.overlay === 'save' || t.overlay === 'load') {
            const b = buttons.find((x) => x.id === `slot:${n}` && x.enabled);
            if (b) this.activate(b);
          } else if (t.screen === 'story' && !t.overlay) {
            const c = t.visibleChoices()[n - 1];
            if (c) t.choose(c.index);
          }
        }
    }
  }

  private wheel(dy: number): void {
    const t = this.t;
    const m = t.menus;
    if (t.overlay === 'backlog') {
      if (dy > 0 && m.backlogScroll >= m.backlogMaxScroll - 1) m.close();
      else m.scrollBacklog(dy);
      return;
    }
    if (t.overlay || t.screen !== 'story') return;
    if (dy < 0) {
      if (t.backlog.length) m.open('backlog');
    } else if (dy > 0) {
      const now = performance.now();
      if (now - this.lastWheelAdvance > 180 && !t.visibleChoices().length) {
        this.lastWheelAdvance = now;
        t.advance();
      }
    }
  }

  /** A button pressed (click, Enter on the focused one, or a digit for a slot). */
  private activate(b: Button): void {
    const t = this.t;
    const m = t.menus;
    if (!b.enabled) return;
    const [group, arg] = b.id.split(':');
    switch (group) {
      case 'title':
        if (arg === 'new') t.newGame();
        else if (arg === 'continue') m.open('load');
        return;
      case 'choice':
        return t.choose(Number(arg));
      case 'quick':
        switch (arg) {
          case 'log':
            return m.open('backlog');
          case 'auto':
            return t.setAuto(!t.auto);
          case 'skip':
            return t.setSkip(!t.skip);
          case 'save':
            return m.open('save');
          case 'load':
            return m.open('load');
          case 'menu':
            return m.open('menu');
        }
        return;
      case 'menu':
        switch (arg) {
          case 'save':
            return m.open('save', 'menu');
          case 'load':
            return m.open('load', 'menu');
          case 'backlog':
            return m.open('backlog', 'menu');
          case 'auto':
            t.setAuto(!t.auto);
            return m.close();
          case 'skip':
            t.setSkip(!t.skip);
            return m.close();
          case 'title':
            return m.ask('タイトルに戻りますか？', () => t.showTitle(), 'menu', 'confirm:no');
          case 'close':
            return m.close();
        }
        return;
      case 'slot': {
        const slot = Number(arg);
        if (t.overlay === 'save') {
          if (t.saves.has(slot)) m.ask(`スロット${slot}に上書きしますか？`, () => t.saveToSlot(slot), 'save', 'confirm:yes');
          else t.saveToSlot(slot);
        } else if (t.overlay === 'load') {
          t.loadSlot(slot);
        }
        return;
      }
      case 'confirm':
        if (arg === 'yes' && m.confirm) m.accept();
        else m.close();
        return;
      case 'back':
        return m.close();
    }
  }
}
