/**
 * Development: the page's real mouse and keyboard (a person opening the runtime in a browser),
 * turned into streaming-protocol messages for applyInput — the same path the game host's
 * messages take. Pointer positions are normalised to the letterboxed canvas (0..1).
 */
import { NAMED_KEYS, type NamedKey } from '../../lib/streaming/messages';
import { H, W } from './types';

export function attachDomInput(canvas: HTMLCanvasElement, applyInput: (msg: unknown) => boolean): void {
  function toUnit(ev: MouseEvent): { x: number; y: number } {
    const r = canvas.getBoundingClientRect();
    // the canvas is letterboxed with object-fit: contain
    const k = Math.min(r.width / W, r.height / H);
    const ox = r.left + (r.width - W * k) / 2;
    const oy = r.top + (r.height - H * k) / 2;
    const clamp = (v: number) => Math.max(0, Math.min(1, v));
    return { x: clamp((ev.clientX - ox) / (W * k)), y: clamp((ev.clientY - oy) / (H * k)) };
  }
  canvas.addEventListener('mousedown', (ev) => {
    const { x, y } = toUnit(ev);
    applyInput({ v: 1, type: 'pointer', kind: 'down', x, y, button: ev.button === 2 ? 2 : ev.button === 1 ? 1 : 0 });
  });
  canvas.addEventListener('mouseup', (ev) => {
    const { x, y } = toUnit(ev);
    applyInput({ v: 1, type: 'pointer', kind: 'up', x, y, button: ev.button === 2 ? 2 : ev.button === 1 ? 1 : 0 });
  });
  canvas.addEventListener('mousemove', (ev) => {
    const { x, y } = toUnit(ev);
    applyInput({ v: 1, type: 'pointer', kind: 'move', x, y });
  });
  canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());
  canvas.addEventListener(
    'wheel',
    (ev) => {
      ev.preventDefault();
      applyInput({ v: 1, type: 'wheel', dy: Math.max(-1000, Math.min(1000, ev.deltaY)) });
    },
    { passive: false },
  );
  const KEYS = new Set<string>(NAMED_KEYS);
  function keyName(ev: KeyboardEvent): NamedKey | null {
    const k = ev.key === ' ' ? 'Space' : ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    return KEYS.has(k) ? (k as NamedKey) : null;
  }
  window.addEventListener('keydown', (ev) => {
    const key = keyName(ev);
    if (!key || ev.repeat) return;
    ev.preventDefault();
    applyInput({ v: 1, type: 'key', kind: 'down', key });
  });
  window.addEventListener('keyup', (ev) => {
    const key = keyName(ev);
    if (!key) return;
    applyInput({ v: 1, type: 'key', kind: 'up', key });
  });
}
