/**
 * The Ren'Py key table (keymap.ts): every key a player may send maps to a keysym or is one of the
 * deliberately dropped ones, and nothing but Control_L is ever a modifier (docs/renpy.md §5:
 * Shift would reach Ren'Py's developer console and menus).
 */
import { NAMED_KEYS, type NamedKey } from '../../../lib/streaming/messages';
import { pointerButton, renpyKeysym, RENPY_OVERLAY_KEYS } from './keymap';

const DELIBERATELY_NULL: readonly NamedKey[] = ['s', 'f', 'v', 'd'];
const MODIFIERS = /^(Shift|Control|Alt|Meta|Super|Hyper|ISO_Level|Mode_switch|Caps_Lock|Num_Lock)/;

describe('renpyKeysym', () => {
  it('maps every NamedKey, or drops exactly s, f, v and d', () => {
    for (const key of NAMED_KEYS) {
      const sym = renpyKeysym(key);
      if (DELIBERATELY_NULL.includes(key)) expect(sym).toBeNull();
      else expect(typeof sym === 'string' && /^[A-Za-z0-9_]{1,32}$/.test(sym)).toBe(true);
    }
  });

  it('produces no modifier other than Control_L', () => {
    const modifiers = NAMED_KEYS.map(renpyKeysym).filter((s): s is string => s !== null && MODIFIERS.test(s));
    expect([...new Set(modifiers)]).toEqual(['Control_L']);
  });

  it('follows the table of docs/renpy.md §5 and the overlay bindings', () => {
    const expected: Partial<Record<NamedKey, string>> = {
      Enter: 'Return', Space: 'space', Escape: 'Escape', ArrowUp: 'Up', ArrowDown: 'Down',
      ArrowLeft: 'Left', ArrowRight: 'Right', Backspace: 'BackSpace', Control: 'Control_L',
      PageUp: 'Prior', PageDown: 'Next', Backlog: 'Prior', Skip: 'Tab', Auto: 'F6', Save: 'F7',
      Load: 'F8', Menu: 'Escape', a: 'a', h: 'h', m: 'm', z: 'z', '0': '0', '1': '1', '9': '9',
    };
    for (const [key, sym] of Object.entries(expected)) expect([key, renpyKeysym(key as NamedKey)]).toEqual([key, sym]);
    // The overlay's pygame names agree with the keysyms injected for Auto/Save/Load.
    expect(RENPY_OVERLAY_KEYS).toEqual({ auto: `K_${renpyKeysym('Auto')}`, save: `K_${renpyKeysym('Save')}`, load: `K_${renpyKeysym('Load')}` });
  });
});

describe('pointerButton', () => {
  it('maps primary, middle and secondary to X buttons 1, 2, 3', () => {
    expect([pointerButton(0), pointerButton(1), pointerButton(2)]).toEqual([1, 2, 3]);
  });
});
