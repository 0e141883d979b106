/**
 * The player's keys (`NamedKey` of lib/streaming/messages.ts) as the X keysyms the native
 * runtime's XTest helper (xhelper.py) injects into Ren'Py, after docs/renpy.md §5. Why a table of
 * its own: Ren'Py's default keymap has bindings that must never be reachable from a player —
 * `s` (writes a screenshot into the game's dir), `f` (fullscreen: changes the window's size, and so
 * the captured rectangle), `v` (self-voicing: spawns a TTS program), `d` (director) — so those map
 * to null (dropped), and no modifier but Control_L (held: skip) is ever produced (Shift opens the
 * developer console/menu). The VN commands without a default key are bound by the host's Ren'Py
 * overlay (.rpy on RENPY_SEARCHPATH) to the keys named in RENPY_OVERLAY_KEYS.
 */
import type { NamedKey, PointerButton } from '../../../lib/streaming/messages';

/** Pygame key names the host's Ren'Py overlay binds to Auto/Save/Load (Menu is Escape, Ren'Py's own). */
export const RENPY_OVERLAY_KEYS = { auto: 'K_F6', save: 'K_F7', load: 'K_F8' } as const;

/** Letters Ren'Py 8.0.3 binds to actions a player must not trigger (docs/renpy.md §5). */
export const DROPPED_LETTERS: ReadonlySet<string> = new Set(['s', 'f', 'v', 'd']);

const NAMED: Partial<Record<NamedKey, string>> = {
  Enter: 'Return',
  Space: 'space',
  Escape: 'Escape',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Backspace: 'BackSpace',
  Control: 'Control_L',
  PageUp: 'Prior',
  PageDown: 'Next',
  Backlog: 'Prior',
  Skip: 'Tab',
  Auto: 'F6',
  Save: 'F7',
  Load: 'F8',
  Menu: 'Escape',
};

/** The X keysym name to inject for a player's key, or null when the key is deliberately dropped. */
export function renpyKeysym(key: NamedKey): string | null {
  const named = NAMED[key];
  if (named !== undefined) return named;
  if (/^[a-z0-9]$/.test(key)) return DROPPED_LETTERS.has(key) ? null : key;
  return null;
}

/** The protocol's pointer button (0 primary, 1 middle, 2 secondary) as X's button number. */
export function pointerButton(button: PointerButton): 1 | 2 | 3 {
  return button === 0 ? 1 : button === 1 ? 2 : 3;
}
