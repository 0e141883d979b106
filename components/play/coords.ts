/**
 * Where in the game's 16:9 picture a point of the (letterboxed) video element falls,
 * normalised to 0..1; null when the point is on the black bars.
 */
export function normalisedPoint(clientX: number, clientY: number, rect: { left: number; top: number; width: number; height: number }, videoW = 1280, videoH = 720): { x: number; y: number } | null {
  const scale = Math.min(rect.width / videoW, rect.height / videoH);
  const w = videoW * scale;
  const h = videoH * scale;
  const left = rect.left + (rect.width - w) / 2;
  const top = rect.top + (rect.height - h) / 2;
  const x = (clientX - left) / w;
  const y = (clientY - top) / h;
  if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) return null;
  return { x, y };
}

const KEY_MAP: Record<string, string> = {
  Enter: 'Enter',
  ' ': 'Space',
  Escape: 'Escape',
  ArrowUp: 'ArrowUp',
  ArrowDown: 'ArrowDown',
  ArrowLeft: 'ArrowLeft',
  ArrowRight: 'ArrowRight',
  Backspace: 'Backspace',
  Control: 'Control',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
};

/** A browser KeyboardEvent.key → the protocol's named key, or null for keys the game ignores. */
export function namedKey(key: string): string | null {
  if (KEY_MAP[key]) return KEY_MAP[key];
  if (/^[a-zA-Z0-9]$/.test(key)) return key.toLowerCase();
  return null;
}
