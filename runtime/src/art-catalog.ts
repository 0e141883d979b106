/**
 * A title's art as game.json declares it, without any pixels: every image's key and file, which
 * expression a character is drawn with (a fallback when one is missing or failed to load), and the
 * images a stage of a scene and characters shows. The art store (art.ts) holds the rasters.
 */
import type { ArtKey } from './art-ahead';
import type { GameData, Position } from './types';

export const bgKey = (id: string): ArtKey => `bg:${id}`;
export const spriteKey = (charId: string, expr: string): ArtKey => `sprite:${charId}/${expr}`;

const FALLBACK_EXPRESSIONS = ['normal', 'default', 'neutral'];

export class ArtCatalog {
  /** Images whose file failed to load or decode (for good: another expression is drawn). */
  protected readonly failed = new Set<ArtKey>();

  constructor(protected readonly game: GameData) {}

  /** Every image the title declares, backgrounds first. */
  allKeys(): ArtKey[] {
    const keys = Object.entries(this.game.backgrounds)
      .filter(([, p]) => typeof p === 'string')
      .map(([id]) => bgKey(id));
    for (const [cid, def] of Object.entries(this.game.characters)) {
      for (const [expr, p] of Object.entries(def?.sprites ?? {})) if (typeof p === 'string') keys.push(spriteKey(cid, expr));
    }
    return keys;
  }

  /** The image's file (relative to the title's assets), or null if the title does not declare it. */
  protected path(key: ArtKey): string | null {
    if (key.startsWith('bg:')) {
      const p = this.game.backgrounds[key.slice(3)];
      return typeof p === 'string' ? p : null;
    }
    const [cid, expr] = key.slice('sprite:'.length).split('/');
    const p = this.game.characters[cid]?.sprites?.[expr];
    return typeof p === 'string' ? p : null;
  }

  hasFailed(key: ArtKey): boolean {
    return this.failed.has(key);
  }

  /** The declared expression drawn for `expr` (itself, or a fallback), or null if none. */
  expression(charId: string, expr: string): string | null {
    const sprites = this.game.characters[charId]?.sprites;
    if (!sprites) return null;
    if (typeof sprites[expr] === 'string' && !this.failed.has(spriteKey(charId, expr))) return expr;
    for (const e of [...FALLBACK_EXPRESSIONS, ...Object.keys(sprites)]) {
      if (typeof sprites[e] === 'string' && !this.failed.has(spriteKey(charId, e))) return e;
    }
    return null;
  }

  /** The images a stage (background + characters) shows. */
  stageKeys(scene: string | null, chars: { id: string; expr: string; pos?: Position }[]): ArtKey[] {
    const keys: ArtKey[] = [];
    if (scene && this.path(bgKey(scene)) !== null) keys.push(bgKey(scene));
    for (const c of chars) {
      const e = this.expression(c.id, c.expr);
      if (e) keys.push(spriteKey(c.id, e));
    }
    return keys;
  }
}
