/**
 * Gamepad → the game's named keys (issue 13, docs/play-extras.md). A pad's buttons and left stick
 * become the same key messages the keyboard sends (lib/streaming/messages.ts NAMED_KEYS): A is
 * Enter (advance / confirm), B is Escape (opens the menu, or goes back), the d-pad and the stick
 * are the arrows (move between choices), the shoulder buttons are the VN commands Auto and Skip,
 * Start is Menu and Back/Select the backlog. Indices are the W3C "standard" gamepad layout.
 *
 * `GamepadReader` is the pure part of the polling: given the pads' state at a time, it says
 * which key messages to send — `down` on a press, `down` again while an A/arrow is held (after
 * REPEAT_DELAY_MS, every REPEAT_INTERVAL_MS: a key's auto-repeat), `up` on release.
 */
import type { NamedKey } from '@/lib/streaming/messages';

export interface PadControl {
  /** `b12` (button 12) or `x-`/`y+` (the left stick's axis past the threshold). */
  id: string;
  key: NamedKey;
  /** The control's name in the keypad's help. */
  label: string;
  /** What it does, in Japanese (the help). */
  action: string;
  /** Held, it repeats (advancing or moving through choices); toggles do not. */
  repeat: boolean;
}

/** The standard layout's buttons we use (index → key). */
export const PAD_BUTTONS: (PadControl & { index: number })[] = [
  { index: 0, id: 'b0', key: 'Enter', label: 'A', action: '進む・決定', repeat: true },
  { index: 1, id: 'b1', key: 'Escape', label: 'B', action: 'メニュー・戻る', repeat: false },
  { index: 12, id: 'b12', key: 'ArrowUp', label: '十字キー', action: '選択肢を移動', repeat: true },
  { index: 13, id: 'b13', key: 'ArrowDown', label: '十字キー', action: '選択肢を移動', repeat: true },
  { index: 14, id: 'b14', key: 'ArrowLeft', label: '十字キー', action: '選択肢を移動', repeat: true },
  { index: 15, id: 'b15', key: 'ArrowRight', label: '十字キー', action: '選択肢を移動', repeat: true },
  { index: 4, id: 'b4', key: 'Auto', label: 'LB', action: 'オート', repeat: false },
  { index: 5, id: 'b5', key: 'Skip', label: 'RB', action: 'スキップ', repeat: false },
  { index: 9, id: 'b9', key: 'Menu', label: 'START', action: 'メニュー', repeat: false },
  { index: 8, id: 'b8', key: 'Backlog', label: 'BACK', action: 'ログ', repeat: false },
];

/** The left stick (axes 0 and 1) past this counts as a d-pad press… */
export const STICK_THRESHOLD = 0.6;
/** …and a direction held stays held until the stick comes back under this (no chatter near 0.6). */
export const STICK_RELEASE = 0.4;
const STICK: PadControl[] = [
  { id: 'y-', key: 'ArrowUp', label: '左スティック', action: '選択肢を移動', repeat: true },
  { id: 'y+', key: 'ArrowDown', label: '左スティック', action: '選択肢を移動', repeat: true },
  { id: 'x-', key: 'ArrowLeft', label: '左スティック', action: '選択肢を移動', repeat: true },
  { id: 'x+', key: 'ArrowRight', label: '左スティック', action: '選択肢を移動', repeat: true },
];

/** Held this long, a repeating control sends again… */
export const REPEAT_DELAY_MS = 400;
/** …then every this often (~6.7 a second: well under the host's input rate limit). */
export const REPEAT_INTERVAL_MS = 150;

/** The help's lines: each control once (the d-pad's four directions as one). */
export const PAD_HELP: { label: string; action: string }[] = [
  { label: 'A', action: '進む・決定' },
  { label: 'B', action: 'メニュー・戻る' },
  { label: '十字キー／左スティック', action: '選択肢を移動' },
  { label: 'LB', action: 'オート' },
  { label: 'RB', action: 'スキップ' },
  { label: 'START', action: 'メニュー' },
  { label: 'BACK', action: 'ログ' },
];

/** The part of the Gamepad API we read (so tests can pass plain objects). */
export interface PadState {
  index: number;
  connected: boolean;
  buttons: readonly { pressed: boolean; value?: number }[];
  axes: readonly number[];
}

export interface KeyEvent {
  kind: 'down' | 'up';
  key: NamedKey;
}

/** Which controls of one pad are pressed now (`held`: whether a control was pressed before). */
function pressedControls(pad: PadState, held: (control: PadControl) => boolean): PadControl[] {
  const out: PadControl[] = PAD_BUTTONS.filter((b) => pad.buttons[b.index]?.pressed);
  const [x = 0, y = 0] = pad.axes;
  const past = (control: PadControl, value: number) => value >= (held(control) ? STICK_RELEASE : STICK_THRESHOLD);
  if (past(STICK[0], -y)) out.push(STICK[0]);
  if (past(STICK[1], y)) out.push(STICK[1]);
  if (past(STICK[2], -x)) out.push(STICK[2]);
  if (past(STICK[3], x)) out.push(STICK[3]);
  return out;
}

/** Turns successive pad states into key messages (press, repeat while held, release). */
export class GamepadReader {
  /** Held controls by `pad:control`: when pressed and when last sent. */
  private held = new Map<string, { control: PadControl; since: number; last: number }>();

  /** The key messages for the pads' state at `now` (ms). */
  read(pads: readonly (PadState | null)[], now: number): KeyEvent[] {
    const out: KeyEvent[] = [];
    const seen = new Set<string>();
    for (const pad of pads) {
      if (!pad || !pad.connected) continue;
      for (const control of pressedControls(pad, (c) => this.held.has(`${pad.index}:${c.id}`))) {
        const id = `${pad.index}:${control.id}`;
        seen.add(id);
        const h = this.held.get(id);
        if (!h) {
          this.held.set(id, { control, since: now, last: now });
          out.push({ kind: 'down', key: control.key });
        } else if (control.repeat && now - h.since >= REPEAT_DELAY_MS && now - h.last >= (h.last === h.since ? REPEAT_DELAY_MS : REPEAT_INTERVAL_MS)) {
          h.last = now;
          out.push({ kind: 'down', key: control.key });
        }
      }
    }
    for (const [id, h] of this.held) {
      if (seen.has(id)) continue;
      this.held.delete(id);
      out.push({ kind: 'up', key: h.control.key });
    }
    return out;
  }

  /** Releases everything held (the pad went away, the page unmounts). */
  releaseAll(): KeyEvent[] {
    const out = [...this.held.values()].map((h) => ({ kind: 'up' as const, key: h.control.key }));
    this.held.clear();
    return out;
  }
}
