/**
 * Backgrounds and character sprites: SVG files rasterised once at their display size, lazily.
 *
 * Rasterising every SVG of a title up front cost ~0.5-1 s of the game's start (issue 4: "presses
 * play and, about a second later, is playing"). Now start() rasterises only what the first screen
 * shows (`ensure`), the rest is rasterised one image per idle period in the order the story uses
 * it (`warm`), and a draw that needs an image not ready yet asks for it at once (`background`,
 * `sprite`: they start the job and bump `epoch` when it lands, so cached layers are redrawn).
 */
import { parseTag } from './tags';
import { H, W, type ArtStats, type GameData, type Position } from './types';

export type Raster = HTMLCanvasElement;

/** Sprites are drawn with this height (bottom aligned to the screen). */
export const SPRITE_HEIGHT = 660;

/** A sprite rendered once at its display size, plus a dimmed copy for non-speaking characters. */
export class SpriteRaster {
  private dimmed: Raster | null = null;
  constructor(readonly normal: Raster) {}
  get width(): number {
    return this.normal.width;
  }
  get height(): number {
    return this.normal.height;
  }
  /** Frees the pixels now (a dropped preparation: prepare.ts), not at the next GC. */
  dispose(): void {
    for (const c of [this.normal, this.dimmed]) if (c) c.width = c.height = 0;
    this.dimmed = null;
  }
  /** The darker copy for characters who are not speaking (made on first use). */
  get dim(): Raster {
    if (!this.dimmed) {
      const c = canvas(this.normal.width, this.normal.height);
      const g = c.getContext('2d')!;
      g.filter = 'brightness(0.72) saturate(0.85)';
      g.drawImage(this.normal, 0, 0);
      this.dimmed = c;
    }
    return this.dimmed;
  }
}

/** `bg:<id>` or `sprite:<charId>/<expression>`. */
export type ArtKey = string;
export const bgKey = (id: string): ArtKey => `bg:${id}`;
export const spriteKey = (charId: string, expr: string): ArtKey => `sprite:${charId}/${expr}`;

function canvas(w: number, h: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = Math.max(1, Math.round(w));
  c.height = Math.max(1, Math.round(h));
  return c;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`image failed: ${url}`));
    img.src = url;
  });
}

/**
 * Chrome records canvas draws and rasterises them when the canvas is first read or drawn
 * elsewhere: reading one pixel does that work now (in idle time) rather than in the frame that
 * first shows the image.
 */
function flush(c: HTMLCanvasElement): void {
  c.getContext('2d')!.getImageData(0, 0, 1, 1);
}

function rasteriseBackground(img: HTMLImageElement): Raster {
  const c = canvas(W, H);
  const g = c.getContext('2d')!;
  // cover the screen, centred
  const iw = img.naturalWidth || W;
  const ih = img.naturalHeight || H;
  const k = Math.max(W / iw, H / ih);
  g.drawImage(img, (W - iw * k) / 2, (H - ih * k) / 2, iw * k, ih * k);
  flush(c);
  return c;
}

function rasteriseSprite(img: HTMLImageElement): SpriteRaster {
  const iw = img.naturalWidth || 560;
  const ih = img.naturalHeight || 680;
  const w = (iw * SPRITE_HEIGHT) / ih;
  const c = canvas(w, SPRITE_HEIGHT);
  c.getContext('2d')!.drawImage(img, 0, 0, w, SPRITE_HEIGHT);
  flush(c);
  return new SpriteRaster(c);
}

/** Resolves in the browser's next idle period (or after `timeoutMs`), or when `expedite` is called. */
function idle(timeoutMs: number): { done: Promise<void>; expedite: () => void } {
  let expedite = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    expedite = resolve;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 16);
  });
  return { done, expedite };
}

interface Job {
  done: Promise<void>;
  /** Skips the idle waits of a background job (a draw needs the image now). */
  expedite: () => void;
}

const FALLBACK_EXPRESSIONS = ['normal', 'default', 'neutral'];
/** A background job waits at most this long for an idle period. */
const IDLE_TIMEOUT_MS = 1000;

export class ArtStore {
  readonly backgrounds = new Map<string, Raster>();
  readonly sprites = new Map<string, SpriteRaster>();
  /** Bumped when an image a draw asked for lands: the renderer's cached layers include it. */
  epoch = 0;
  /** Called when an image a draw asked for lands (the engine redraws). */
  onArrive: (() => void) | null = null;
  private readonly jobs = new Map<ArtKey, Job>();
  private readonly settled = new Set<ArtKey>();
  private readonly failed = new Set<ArtKey>();
  private readonly missed = new Set<ArtKey>();
  /** Draws that needed an image not rasterised yet. */
  private misses = 0;
  private queue: ArtKey[] = [];
  private warming = false;

  constructor(
    private readonly game: GameData,
    private readonly url: (path: string) => string,
    private readonly onMissing: (what: string, e: unknown) => void,
  ) {}

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

  private path(key: ArtKey): string | null {
    if (key.startsWith('bg:')) {
      const p = this.game.backgrounds[key.slice(3)];
      return typeof p === 'string' ? p : null;
    }
    const [cid, expr] = key.slice('sprite:'.length).split('/');
    const p = this.game.characters[cid]?.sprites?.[expr];
    return typeof p === 'string' ? p : null;
  }

  /** Rasterised (or failed for good): nothing more will come for this key. */
  isSettled(key: ArtKey): boolean {
    return this.settled.has(key) || this.path(key) === null;
  }

  hasFailed(key: ArtKey): boolean {
    return this.failed.has(key);
  }

  isReady(keys: ArtKey[]): boolean {
    return keys.every((k) => this.isSettled(k));
  }

  /** Loads and rasterises these now (no idle wait); resolves when each is done or failed. */
  ensure(keys: ArtKey[]): Promise<void> {
    return Promise.all(keys.map((k) => this.job(k, false).done)).then(() => undefined);
  }

  /** Rasterises `order` (then everything else declared) one image per idle period. */
  warm(order: ArtKey[]): void {
    this.queue = [...new Set([...order, ...this.allKeys()])].filter((k) => this.path(k) !== null);
    if (this.warming) return;
    this.warming = true;
    void (async () => {
      while (this.queue.length) {
        const key = this.queue.shift()!;
        if (this.jobs.has(key)) continue;
        await this.job(key, true).done;
      }
      this.warming = false;
    })();
  }

  /**
   * Frees every raster's pixels now (a preparation no session took: prepare.ts; ~3.7 MB a
   * background), rather than whenever the page collects its garbage. The store is not used after.
   */
  dispose(): void {
    this.queue = [];
    for (const r of this.backgrounds.values()) r.width = r.height = 0;
    for (const s of this.sprites.values()) s.dispose();
    this.backgrounds.clear();
    this.sprites.clear();
  }

  /** The background raster, or undefined while it loads (it is asked for at once). */
  background(id: string): Raster | undefined {
    const r = this.backgrounds.get(id);
    if (!r) this.want(bgKey(id));
    return r;
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

  /** A character's sprite; while the right expression loads, another loaded one of theirs. */
  sprite(charId: string, expr: string): SpriteRaster | null {
    const want = this.expression(charId, expr);
    if (!want) return null;
    const exact = this.sprites.get(`${charId}/${want}`);
    if (exact) return exact;
    this.want(spriteKey(charId, want));
    for (const e of Object.keys(this.game.characters[charId]?.sprites ?? {})) {
      const s = this.sprites.get(`${charId}/${e}`);
      if (s) return s;
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

  stats(holds: number): ArtStats {
    return {
      total: this.allKeys().length,
      rasterised: this.backgrounds.size + this.sprites.size,
      failed: this.failed.size,
      misses: this.misses,
      holds,
    };
  }

  private want(key: ArtKey): void {
    if (this.isSettled(key)) return;
    if (!this.missed.has(key)) this.misses++;
    this.missed.add(key);
    this.job(key, false);
  }

  private job(key: ArtKey, inIdle: boolean): Job {
    const existing = this.jobs.get(key);
    if (existing) {
      if (!inIdle) existing.expedite();
      return existing;
    }
    const path = this.path(key);
    const waits: (() => void)[] = [];
    const wait = async () => {
      if (!inIdle) return;
      const w = idle(IDLE_TIMEOUT_MS);
      waits.push(w.expedite);
      await w.done;
    };
    const job: Job = {
      expedite: () => {
        inIdle = false;
        for (const x of waits) x();
      },
      done: (async () => {
        if (path === null) return;
        try {
          // two idle slices in the background: parsing the SVG, then rasterising it
          await wait();
          const img = await loadImage(this.url(path));
          await wait();
          if (key.startsWith('bg:')) this.backgrounds.set(key.slice(3), rasteriseBackground(img));
          else this.sprites.set(key.slice('sprite:'.length), rasteriseSprite(img));
        } catch (e) {
          this.failed.add(key);
          this.onMissing(key.replace(':', ' '), e);
        }
        this.settled.add(key);
        if (this.missed.delete(key)) {
          this.epoch++;
          this.onArrive?.();
        }
      })(),
    };
    this.jobs.set(key, job);
    return job;
  }
}

/**
 * The images in the order the story first uses them (its scene and char tags, in the compiled
 * ink JSON), so background rasterising has the next scenes ready first. Works on the text: no
 * story has to run.
 */
export function artOrder(inkJson: string, art: ArtStore): ArtKey[] {
  const keys: ArtKey[] = [];
  const seen = new Set<ArtKey>();
  // tags are `"#","^scene: x","/#"` (ink 21) or `{"#":"scene: x"}` (older)
  const re = /(?:"\^|"#":\s*")\s*((?:scene|bg|char)\s*[:：][^"\\]*)/g;
  for (const m of inkJson.matchAll(re)) {
    const cmd = parseTag(m[1]);
    const found =
      cmd?.tag === 'scene' ? art.stageKeys(cmd.bg, []) : cmd?.tag === 'char' ? art.stageKeys(null, [{ id: cmd.id, expr: cmd.expr ?? 'normal' }]) : [];
    for (const k of found) {
      if (seen.has(k)) continue;
      seen.add(k);
      keys.push(k);
    }
  }
  return keys;
}
