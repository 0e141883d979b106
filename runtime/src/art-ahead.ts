/**
 * What the story can show next, so the art store (art.ts) rasterises it ahead and keeps little
 * else. The compiled ink JSON lists the story's scene and char tags in the order they are
 * written (`artOrder`); a story mostly plays in that order, its branches one after the other. A
 * cursor follows the play through that list: each picture the stage shows moves it to that
 * image's next use at or after it (or its first use, when the play jumped back), and the images
 * after the cursor are the lookahead; an image's next use after the cursor (`distance`) says which
 * raster to free first (the one needed last). Works on the text: no story has to run.
 */
import { parseTag } from './tags';

/** `bg:<id>` or `sprite:<charId>/<expression>`. */
export type ArtKey = string;

/** What artOrder needs of the art store: the images a stage of these tags would show. */
export interface StageKeys {
  stageKeys(scene: string | null, chars: { id: string; expr: string }[]): ArtKey[];
}

/**
 * The images of every scene and char tag, in the order the compiled ink JSON has them (repeats
 * included: the lookahead follows it).
 */
export function artOrder(inkJson: string, art: StageKeys): ArtKey[] {
  const keys: ArtKey[] = [];
  // tags are `"#","^scene: x","/#"` (ink 21) or `{"#":"scene: x"}` (older)
  const re = /(?:"\^|"#":\s*")\s*((?:scene|bg|char)\s*[:：][^"\\]*)/g;
  for (const m of inkJson.matchAll(re)) {
    const cmd = parseTag(m[1]);
    const found =
      cmd?.tag === 'scene' ? art.stageKeys(cmd.bg, []) : cmd?.tag === 'char' ? art.stageKeys(null, [{ id: cmd.id, expr: cmd.expr ?? 'normal' }]) : [];
    // the same image twice in a row is one use
    for (const k of found) if (keys[keys.length - 1] !== k) keys.push(k);
  }
  return keys;
}

/** How far past the cursor the lookahead looks (tags). */
const SCAN = 48;

export class Lookahead {
  private order: ArtKey[] = [];
  /** Index in `order` of the last image the play was seen to use (-1: before the first). */
  private cursor = -1;
  private shown = new Set<ArtKey>();

  /** The story's art in order (artOrder, possibly led by the first screen's). */
  setOrder(order: ArtKey[]): void {
    this.order = order;
    this.cursor = -1;
    const shown = [...this.shown];
    this.shown.clear();
    this.follow(shown);
  }

  get position(): number {
    return this.cursor;
  }

  /** The screen now shows `keys`: the images new to it move the cursor. */
  follow(keys: ArtKey[]): void {
    for (const k of keys) {
      if (this.shown.has(k)) continue;
      const at = this.find(k);
      if (at >= 0) this.cursor = at;
    }
    this.shown = new Set(keys);
  }

  /** The next use of `k` at or after the cursor, else its first use; -1 if the story has none. */
  private find(k: ArtKey): number {
    const from = Math.max(0, this.cursor);
    const ahead = this.order.indexOf(k, from);
    return ahead >= 0 ? ahead : this.order.indexOf(k);
  }

  /** How many tags after the cursor `k` is used next (Infinity: not again, as far as the order says). */
  distance(k: ArtKey): number {
    const at = this.order.indexOf(k, this.cursor + 1);
    return at < 0 ? Infinity : at - this.cursor;
  }

  /** The distinct images after the cursor, nearest first, that the screen does not show. */
  next(): ArtKey[] {
    const out: ArtKey[] = [];
    const end = Math.min(this.order.length, this.cursor + 1 + SCAN);
    for (let i = this.cursor + 1; i < end; i++) {
      const k = this.order[i];
      if (!this.shown.has(k) && !out.includes(k)) out.push(k);
    }
    return out;
  }
}
