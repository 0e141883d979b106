/** Loading a game's files: game.json, meta.json, art (SVG via Image), scores and sfx specs. */
import type { GameData, GameMeta, Score, SfxSpec } from './types';
import { H, W } from './effects';

export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return (await res.json()) as T;
}

export async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return res.text();
}

export function normaliseGame(raw: unknown): GameData {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Partial<GameData>;
  const obj = <T>(v: unknown): Record<string, T> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, T>) : {});
  return {
    title: typeof o.title === 'string' ? o.title : undefined,
    characters: obj(o.characters),
    backgrounds: obj(o.backgrounds),
    music: obj(o.music),
    sfx: obj(o.sfx),
    endings: obj(o.endings),
    titleScreen: o.titleScreen && typeof o.titleScreen === 'object' ? o.titleScreen : undefined,
  };
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

export type Raster = HTMLCanvasElement;

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

/** Sprites are drawn with this height (bottom aligned to the screen). */
export const SPRITE_HEIGHT = 660;

function canvas(w: number, h: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = Math.max(1, Math.round(w));
  c.height = Math.max(1, Math.round(h));
  return c;
}

export class Assets {
  readonly backgrounds = new Map<string, Raster>();
  readonly sprites = new Map<string, SpriteRaster>();
  private readonly scores = new Map<string, Promise<Score | null>>();
  private readonly sfx = new Map<string, Promise<SfxSpec | null>>();
  readonly missing: string[] = [];

  constructor(
    readonly base: string,
    readonly game: GameData,
  ) {}

  url(path: string): string {
    return new URL(path, new URL(this.base, location.href)).href;
  }

  /** Loads and rasterises every background and sprite (SVG files are small). */
  async loadArt(): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const [id, path] of Object.entries(this.game.backgrounds)) {
      if (typeof path !== 'string') continue;
      jobs.push(
        loadImage(this.url(path))
          .then((img) => {
            const c = canvas(W, H);
            const g = c.getContext('2d')!;
            // cover the screen, centred
            const iw = img.naturalWidth || W;
            const ih = img.naturalHeight || H;
            const k = Math.max(W / iw, H / ih);
            g.drawImage(img, (W - iw * k) / 2, (H - ih * k) / 2, iw * k, ih * k);
            this.backgrounds.set(id, c);
          })
          .catch((e) => this.miss(`background ${id}`, e)),
      );
    }
    for (const [cid, def] of Object.entries(this.game.characters)) {
      for (const [expr, path] of Object.entries(def?.sprites ?? {})) {
        if (typeof path !== 'string') continue;
        jobs.push(
          loadImage(this.url(path))
            .then((img) => {
              const iw = img.naturalWidth || 560;
              const ih = img.naturalHeight || 680;
              const k = SPRITE_HEIGHT / ih;
              const w = iw * k;
              const normal = canvas(w, SPRITE_HEIGHT);
              normal.getContext('2d')!.drawImage(img, 0, 0, w, SPRITE_HEIGHT);
              this.sprites.set(`${cid}/${expr}`, new SpriteRaster(normal));
            })
            .catch((e) => this.miss(`sprite ${cid}/${expr}`, e)),
        );
      }
    }
    await Promise.all(jobs);
  }

  private miss(what: string, e: unknown): void {
    this.missing.push(what);
    console.warn(`[yumecast] missing ${what}:`, e instanceof Error ? e.message : e);
  }

  /** The sprite for a character and expression, falling back to another expression. */
  sprite(charId: string, expr: string): SpriteRaster | null {
    const exact = this.sprites.get(`${charId}/${expr}`);
    if (exact) return exact;
    const def = this.game.characters[charId];
    if (!def?.sprites) return null;
    for (const fallback of ['normal', 'default', 'neutral', ...Object.keys(def.sprites)]) {
      const s = this.sprites.get(`${charId}/${fallback}`);
      if (s) return s;
    }
    return null;
  }

  score(id: string): Promise<Score | null> {
    let p = this.scores.get(id);
    if (!p) {
      const entry = this.game.music[id];
      p =
        entry === undefined
          ? Promise.resolve(null)
          : typeof entry === 'object'
            ? Promise.resolve(entry)
            : fetchJson<Score>(this.url(entry)).catch((e) => {
                this.miss(`music ${id}`, e);
                return null;
              });
      this.scores.set(id, p);
    }
    return p;
  }

  sfxSpec(id: string): Promise<SfxSpec | null> {
    let p = this.sfx.get(id);
    if (!p) {
      const entry = this.game.sfx[id];
      p = (
        entry === undefined
          ? Promise.resolve(null)
          : typeof entry === 'object'
            ? Promise.resolve(entry)
            : fetchJson<SfxSpec>(this.url(entry))
      )
        .catch((e) => {
          this.miss(`sfx ${id}`, e);
          return null;
        })
        .then((spec) => spec ?? guessSfx(id));
      this.sfx.set(id, p);
    }
    return p;
  }

  /** Fetches every score and sfx spec in advance (small JSON files). */
  preloadSound(): Promise<unknown> {
    return Promise.all([
      ...Object.keys(this.game.music).map((id) => this.score(id)),
      ...Object.keys(this.game.sfx).map((id) => this.sfxSpec(id)),
    ]);
  }
}

/** An sfx id the game does not define: guess a type from its name so something sensible plays. */
export function guessSfx(id: string): SfxSpec | null {
  const types = ['chime', 'door', 'wave', 'train', 'page', 'footsteps', 'bell', 'wind'] as const;
  const lower = id.toLowerCase();
  const t = types.find((k) => lower.includes(k)) ?? (lower.includes('step') ? 'footsteps' : lower.includes('sea') ? 'wave' : null);
  return t ? { type: t } : null;
}

export async function loadGameFiles(base: string): Promise<{ game: GameData; meta: GameMeta }> {
  const abs = new URL(base, location.href).href;
  const [game, meta] = await Promise.all([
    fetchJson<unknown>(new URL('game.json', abs).href),
    fetchJson<GameMeta>(new URL('meta.json', abs).href).catch(() => ({}) as GameMeta),
  ]);
  return { game: normaliseGame(game), meta };
}
