/** Loading a game's files: game.json, meta.json, scores and sfx specs; the art is in art.ts. */
import { ArtStore, type Raster, type SpriteRaster } from './art';
import { SFX_TYPES } from './audio/sfx';
import type { GameData, GameMeta, Score, SfxSpec } from './types';
import { platform } from './platform';

/*
 * Plain fetches: the host's page server marks game files cacheable (a runtime lives for one
 * session), so what the prewarm loaded is read from the HTTP cache without a round trip; a server
 * that sends no cache headers (development, the runtime tests) is asked every time.
 */
export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return (await res.json()) as T;
}

export async function fetchText(url: string): Promise<string> {
  const res = await fetch(url);
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

export class Assets {
  /** Backgrounds and sprites, rasterised lazily (art.ts). */
  readonly art: ArtStore;
  private readonly scores = new Map<string, Promise<Score | null>>();
  private readonly sfx = new Map<string, Promise<SfxSpec | null>>();
  readonly missing: string[] = [];

  constructor(
    readonly base: string,
    readonly game: GameData,
  ) {
    this.art = new ArtStore(game, (p) => this.url(p), (what, e) => this.miss(what, e));
  }

  url(path: string): string {
    return new URL(path, new URL(this.base, platform().baseHref())).href;
  }

  private miss(what: string, e: unknown): void {
    this.missing.push(what);
    console.warn(`[yumecast] missing ${what}:`, e instanceof Error ? e.message : e);
  }

  /** The background raster, or undefined while it loads (it is asked for at once). */
  background(id: string): Raster | undefined {
    return this.art.background(id);
  }

  /** The sprite for a character and expression, falling back to another expression. */
  sprite(charId: string, expr: string): SpriteRaster | null {
    return this.art.sprite(charId, expr);
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
  const lower = id.toLowerCase();
  const t = SFX_TYPES.find((k) => lower.includes(k)) ?? (lower.includes('step') ? 'footsteps' : lower.includes('sea') ? 'wave' : null);
  return t ? { type: t } : null;
}

export async function loadGameFiles(base: string): Promise<{ game: GameData; meta: GameMeta }> {
  const abs = new URL(base, platform().baseHref()).href;
  const [game, meta] = await Promise.all([
    fetchJson<unknown>(new URL('game.json', abs).href),
    fetchJson<GameMeta>(new URL('meta.json', abs).href).catch(() => ({}) as GameMeta),
  ]);
  return { game: normaliseGame(game), meta };
}
