/**
 * Save states (format `yumecast-vn-save`, v1; runtime/README.md): building one from the play
 * (the ink state + what the stage and the text window show + the last 60 backlog entries),
 * checking one that comes back (parseSave), and the save slots' entries.
 */
import type { Reader } from './reader';
import type { Stage } from './stage';
import type { SaveState } from './types';
import { SLOT_COUNT } from './ui';

/** A filled save slot as the slot screens show it. */
export interface SaveSlot {
  json: string;
  savedAt: string;
  text: string;
  scene: string | null;
}

/** What a save is made of besides the stage and the reader. */
export interface PlayInfo {
  gameId: string;
  /** The ink story's state JSON. */
  ink: string;
  bgm: string | null;
  ending: string | null;
}

export function buildSave(play: PlayInfo, stage: Stage, reader: Reader): SaveState {
  return {
    format: 'yumecast-vn-save',
    v: 1,
    gameId: play.gameId,
    savedAt: new Date().toISOString(),
    ink: play.ink,
    visual: {
      scene: stage.scene,
      chars: stage.chars.map((c) => ({ id: c.id, expr: c.expr, pos: c.pos })),
      weather: [...stage.weather.keys()],
      bgm: play.bgm,
      speaker: reader.line?.speaker ?? null,
      text: reader.line?.text ?? '',
      ending: play.ending,
    },
    backlog: reader.backlog.slice(-60),
    lineCount: reader.lineCount,
  };
}

/** A save state from JSON, cleaned of anything unusable, or null if it is not one. */
export function parseSave(json: string): SaveState | null {
  try {
    const s = JSON.parse(json) as SaveState;
    if (!s || s.format !== 'yumecast-vn-save' || s.v !== 1 || typeof s.ink !== 'string' || typeof s.gameId !== 'string') return null;
    const v = s.visual;
    if (!v || !Array.isArray(v.chars) || !Array.isArray(v.weather) || typeof v.text !== 'string') return null;
    const weatherKinds = ['rain', 'snow', 'sakura', 'stars'];
    v.weather = v.weather.filter((w) => weatherKinds.includes(w));
    v.chars = v.chars.filter((c) => c && typeof c.id === 'string' && typeof c.expr === 'string' && ['left', 'center', 'right'].includes(c.pos));
    s.backlog = Array.isArray(s.backlog) ? s.backlog.filter((b) => b && typeof b.text === 'string') : [];
    s.lineCount = Number.isFinite(s.lineCount) ? s.lineCount : 0;
    s.savedAt = typeof s.savedAt === 'string' ? s.savedAt : new Date(0).toISOString();
    return s;
  } catch {
    return null;
  }
}

/** The slot entry for `json`, or null unless it is a save of `gameId` and `slot` is 1..SLOT_COUNT. */
export function slotEntry(gameId: string, slot: number, json: string): SaveSlot | null {
  const s = parseSave(json);
  if (!s || s.gameId !== gameId || slot < 1 || slot > SLOT_COUNT) return null;
  return { json, savedAt: s.savedAt, text: s.visual.text, scene: s.visual.scene };
}
