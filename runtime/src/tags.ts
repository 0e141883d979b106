/** The ink tags of the contract (docs/vn-engine.md), parsed into commands. */
import type { Position, TransitionKind, WeatherKind } from './types';

export type EffectName = 'shake' | 'flash' | WeatherKind | 'none';

export type TagCommand =
  | { tag: 'scene'; bg: string }
  | { tag: 'transition'; kind: TransitionKind }
  | { tag: 'char'; id: string; expr: string | null; pos: Position | null }
  | { tag: 'hide'; id: string | 'all' }
  | { tag: 'speaker'; id: string | null }
  | { tag: 'bgm'; track: string | null }
  | { tag: 'se'; sfx: string }
  | { tag: 'effect'; effect: EffectName }
  | { tag: 'ending'; id: string };

const TRANSITIONS: readonly string[] = ['fade', 'crossfade', 'flash', 'none'];
const EFFECTS: readonly string[] = ['shake', 'flash', 'rain', 'snow', 'sakura', 'stars', 'none'];
const POSITIONS: readonly string[] = ['left', 'center', 'right'];

/** Parses one tag ("scene: station" or "scene:station"). Unknown or malformed tags give null. */
export function parseTag(raw: string): TagCommand | null {
  const m = /^\s*#?\s*([A-Za-z]+)\s*[:：]\s*(.*?)\s*$/.exec(raw);
  if (!m) return null;
  const name = m[1].toLowerCase();
  const args = m[2].split(/[\s\u3000]+/).filter(Boolean);
  const a0 = args[0] ?? '';
  switch (name) {
    case 'scene':
    case 'bg':
      return a0 ? { tag: 'scene', bg: a0 } : null;
    case 'transition':
      return TRANSITIONS.includes(a0.toLowerCase())
        ? { tag: 'transition', kind: a0.toLowerCase() as TransitionKind }
        : null;
    case 'char': {
      if (!a0) return null;
      let expr: string | null = null;
      let pos: Position | null = null;
      for (const a of args.slice(1)) {
        if (POSITIONS.includes(a.toLowerCase())) pos = a.toLowerCase() as Position;
        else if (expr === null) expr = a;
      }
      return { tag: 'char', id: a0, expr, pos };
    }
    case 'hide':
      return a0 ? { tag: 'hide', id: a0 } : null;
    case 'speaker':
      return { tag: 'speaker', id: a0 && a0 !== 'none' ? a0 : null };
    case 'bgm':
    case 'music':
      if (!a0) return null;
      return { tag: 'bgm', track: a0 === 'stop' || a0 === 'none' ? null : a0 };
    case 'se':
    case 'sfx':
      return a0 ? { tag: 'se', sfx: a0 } : null;
    case 'effect':
      return EFFECTS.includes(a0.toLowerCase())
        ? { tag: 'effect', effect: a0.toLowerCase() as EffectName }
        : null;
    case 'ending':
      return a0 ? { tag: 'ending', id: a0 } : null;
    default:
      return null;
  }
}
