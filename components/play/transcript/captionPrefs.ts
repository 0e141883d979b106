/**
 * The caption mode's settings (issue 13): on or off, and the size the player picked (small,
 * medium, large: for small phones and for low vision), remembered in this browser through
 * lib/storage/localStore.ts, the one localStorage access. Its own key: the caption is the
 * transcript's setting, and a corrupt or missing value gives the defaults.
 */
import { isRecord, readJson, writeRaw } from '@/lib/storage/localStore';

export const CAPTION_SIZES = ['small', 'medium', 'large'] as const;
export type CaptionSize = (typeof CAPTION_SIZES)[number];

/** The caption's font size for each choice (rem: it follows the browser's own text size). */
export const CAPTION_FONT_REM: Record<CaptionSize, number> = { small: 0.9, medium: 1.2, large: 1.6 };
export const CAPTION_SIZE_LABELS: Record<CaptionSize, string> = { small: '小', medium: '中', large: '大' };

export interface CaptionPrefs {
  on: boolean;
  size: CaptionSize;
}

export const CAPTION_PREFS_KEY = 'yumecast.captions';
export const DEFAULT_CAPTION_PREFS: CaptionPrefs = { on: false, size: 'medium' };

export function loadCaptionPrefs(): CaptionPrefs {
  const v = readJson(CAPTION_PREFS_KEY);
  if (!isRecord(v)) return DEFAULT_CAPTION_PREFS;
  return {
    on: typeof v.on === 'boolean' ? v.on : DEFAULT_CAPTION_PREFS.on,
    size: (CAPTION_SIZES as readonly unknown[]).includes(v.size) ? (v.size as CaptionSize) : DEFAULT_CAPTION_PREFS.size,
  };
}

export function saveCaptionPrefs(p: CaptionPrefs): void {
  writeRaw(CAPTION_PREFS_KEY, JSON.stringify({ on: p.on, size: p.size }));
}
