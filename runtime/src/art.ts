/**
 * Backgrounds and character sprites: SVG files rasterised at their display size (art-raster.ts),
 * lazily, and kept within a byte budget (issue 11: memory per session).
 *
 * Rasterising every SVG of a title up front cost ~0.5-1 s of the game's start (issue 4), and
 * keeping every raster cost a busy session ~60 MB of its renderer (~3.7 MB a background, ~1.4 MB
 * a sprite and as much again for its dimmed copy). Now:
 *   - start() rasterises only what the first screen shows (`ensure`);
 *   - the store keeps what the screen shows (`showing`: the stage tells it at each change), what
 *     an ensure or a draw's miss asked for (for PIN_MS after it lands), and the lookahead: the
 *     next few images the story can show (art-ahead.ts), rasterised one per idle period so a
 *     scene change finds them ready; past `budget` bytes (ART_CACHE_BYTES) it frees the others,
 *     the one the story needs last first (least recently used among equals), at once;
 *   - a draw that needs an image not held asks for it at once (`background`, `sprite`: they start
 *     the job and bump `epoch` when it lands, so cached layers are redrawn), and a scene change
 *     waits for its art on the old picture (stage.ts holdForArt), as before;
 *   - after the lookahead, idle time rasterises each image the title declares once (`warm`), so a
 *     broken file is known before a scene needs it; what does not fit the budget is freed again.
 * A save slot's picture is a small thumbnail of its own (`thumbnail`).
 */
import { Lookahead, type ArtKey } from './art-ahead';
import { ArtCatalog, bgKey, spriteKey } from './art-catalog';
import { AHEAD_MAX, IDLE_TIMEOUT_MS, PIN_MS, idle, pageArtBudget } from './art-budget';
import { BACKGROUND_BYTES, SPRITE_HEIGHT, SpriteRaster, loadImage, rasterBytes, rasteriseBackground, rasteriseSprite, release, thumbnailOf, type Raster } from './art-raster';
import type { ArtStats, GameData } from './types';

export { artOrder, type ArtKey } from './art-ahead';
export { ART_CACHE_BYTES, pageArtBudget } from './art-budget';
export { bgKey, spriteKey } from './art-catalog';
export { SPRITE_HEIGHT, SpriteRaster, type Raster } from './art-raster';

interface Job {
  done: Promise<void>;
  /** Skips the idle waits of a background job (a draw needs the image now). */
  expedite: () => void;
}


/** The title's rasters (what it declares and which image a stage draws: art-catalog.ts). */
export class ArtStore extends ArtCatalog {
  /** The rasters held now, by background id and by `charId/expression`. */
  readonly backgrounds = new Map<string, Raster>();
  readonly sprites = new Map<string, SpriteRaster>();
  /** Bumped when an image a draw asked for lands: the renderer's cached layers include it. */
  epoch = 0;
  /** Called when an image a draw asked for lands (the engine redraws). */
  onArrive: (() => void) | null = null;
  /** Bytes of rasters past which unused ones are freed (ART_CACHE_BYTES). */
  budget = pageArtBudget();
  /** Jobs in flight. */
  private readonly jobs = new Map<ArtKey, Job>();
  /** Rasterised at least once. */
  private readonly made = new Set<ArtKey>();
  private readonly missed = new Set<ArtKey>();
  /** Draws that needed an image not rasterised yet. */
  private misses = 0;
  private evicted = 0;
  /** When a draw or the screen last used each image (performance.now()): ties of eviction. */
  private readonly used = new Map<ArtKey, number>();
  /** Kept until then (performance.now()): asked for by an ensure or a draw's miss. */
  private readonly pinned = new Map<ArtKey, number>();
  private pinTimer: ReturnType<typeof setTimeout> | null = null;
  private shown: ArtKey[] = [];
  private ahead: ArtKey[] = [];
  private readonly lookahead = new Lookahead();
  /** Images never rasterised, for idle time once the lookahead is held (`warm`). */
  private firstPass: ArtKey[] = [];
  private warming = false;
  private started = false;
  private disposed = false;
  private readonly thumbs = new Map<string, Raster>();
  /** A sprite's size before one is made (then the last one's). */
  private spriteBytes = Math.round(SPRITE_HEIGHT * 0.85) * SPRITE_HEIGHT * 4;

  constructor(
    game: GameData,
    private readonly url: (path: string) => string,
    private readonly onMissing: (what: string, e: unknown) => void,
  ) {
    super(game);
  }

  private held(key: ArtKey): boolean {
    return key.startsWith('bg:') ? this.backgrounds.has(key.slice(3)) : this.sprites.has(key.slice('sprite:'.length));
  }

  /** Held now (or failed for good, or not declared): a draw of it needs nothing more. */
  isSettled(key: ArtKey): boolean {
    return this.held(key) || this.failed.has(key) || this.path(key) === null;
  }

  isReady(keys: ArtKey[]): boolean {
    return keys.every((k) => this.isSettled(k));
  }

  /** Loads and rasterises these now (no idle wait); resolves when each is held or failed. */
  ensure(keys: ArtKey[]): Promise<void> {
    // (each one that loads is kept PIN_MS from its landing: job())
    this.pin(keys);
    return Promise.all(keys.filter((k) => !this.isSettled(k)).map((k) => this.job(k, false).done)).then(() => undefined);
  }

  /**
   * After start: `order` is the story's art in the order it is used (artOrder, led by the first
   * screen's). Idle time rasterises the lookahead, then each declared image once.
   */
  warm(order: ArtKey[]): void {
    this.lookahead.setOrder(order);
    this.firstPass = [...new Set([...order, ...this.allKeys()])].filter((k) => this.path(k) !== null && !this.made.has(k));
    this.started = true;
    this.plan();
  }

  /** What the screen shows now (the stage at each change, the title): kept, and the lookahead follows it. */
  showing(keys: ArtKey[]): void {
    this.touch(keys);
    if (keys.length === this.shown.length && keys.every((k, i) => k === this.shown[i])) return;
    this.shown = [...keys];
    this.lookahead.follow(keys);
    this.plan();
  }

  /**
   * Frees every raster's pixels now (a preparation no session took: prepare.ts), rather than
   * whenever the page collects its garbage. The store is not used after.
   */
  dispose(): void {
    this.disposed = true;
    if (this.pinTimer !== null) clearTimeout(this.pinTimer);
    this.firstPass = [];
    this.ahead = [];
    for (const r of this.backgrounds.values()) release(r);
    for (const s of this.sprites.values()) s.dispose();
    for (const t of this.thumbs.values()) release(t);
    this.backgrounds.clear();
    this.sprites.clear();
    this.thumbs.clear();
  }

  /** The background raster, or undefined while it loads (it is asked for at once). */
  background(id: string): Raster | undefined {
    const r = this.backgrounds.get(id);
    if (r) this.used.set(bgKey(id), performance.now());
    else this.want(bgKey(id));
    return r;
  }

  /**
   * A save slot's picture of background `id` at w×h, or undefined while its background loads.
   * Made once from the background raster, which then need not stay.
   */
  thumbnail(id: string, w: number, h: number): Raster | undefined {
    const k = `${id}@${w}x${h}`;
    const t = this.thumbs.get(k);
    if (t) return t;
    const bg = this.background(id);
    if (!bg) return undefined;
    const made = thumbnailOf(bg, w, h);
    this.thumbs.set(k, made);
    return made;
  }

  /** A character's sprite; while the right expression loads, another held one of theirs. */
  sprite(charId: string, expr: string): SpriteRaster | null {
    const want = this.expression(charId, expr);
    if (!want) return null;
    const exact = this.sprites.get(`${charId}/${want}`);
    if (exact) {
      this.used.set(spriteKey(charId, want), performance.now());
      return exact;
    }
    this.want(spriteKey(charId, want));
    for (const e of Object.keys(this.game.characters[charId]?.sprites ?? {})) {
      const s = this.sprites.get(`${charId}/${e}`);
      if (s) return s;
    }
    return null;
  }

  /** Bytes of the rasters held now (backgrounds, sprites and their dimmed copies). */
  heldBytes(): number {
    let n = 0;
    for (const r of this.backgrounds.values()) n += rasterBytes(r);
    for (const s of this.sprites.values()) n += s.bytes;
    return n;
  }

  stats(holds: number): ArtStats {
    let thumbBytes = 0;
    for (const t of this.thumbs.values()) thumbBytes += rasterBytes(t);
    let keptBytes = 0;
    for (const k of this.kept()) if (this.held(k)) keptBytes += this.estimate(k);
    return {
      total: this.allKeys().length,
      rasterised: this.made.size,
      failed: this.failed.size,
      misses: this.misses,
      holds,
      held: this.backgrounds.size + this.sprites.size,
      heldBytes: this.heldBytes(),
      keptBytes,
      budget: this.budget,
      evicted: this.evicted,
      thumbBytes,
    };
  }

  private touch(keys: ArtKey[]): void {
    const now = performance.now();
    for (const k of keys) this.used.set(k, now);
  }

  private pin(keys: ArtKey[]): void {
    const until = performance.now() + PIN_MS;
    for (const k of keys) this.pinned.set(k, until);
    this.unpinLater();
  }

  /** When pins run out, what they kept may be past the budget: looks again then. */
  private unpinLater(): void {
    if (this.pinTimer !== null || this.disposed) return;
    this.pinTimer = setTimeout(() => {
      this.pinTimer = null;
      this.plan();
      if (this.pinned.size) this.unpinLater();
    }, PIN_MS / 2);
  }

  /** Kept whatever the budget: shown, or pinned. */
  private kept(now = performance.now()): Set<ArtKey> {
    const out = new Set(this.shown);
    for (const [k, until] of this.pinned) {
      if (until > now) out.add(k);
      else this.pinned.delete(k);
    }
    return out;
  }

  private want(key: ArtKey): void {
    if (this.isSettled(key)) return;
    // kept a while once it lands: the draw that asked is about to use it
    this.pin([key]);
    if (!this.missed.has(key)) this.misses++;
    this.missed.add(key);
    this.job(key, false);
  }

  private estimate(key: ArtKey): number {
    if (this.failed.has(key) || this.path(key) === null) return 0;
    if (key.startsWith('bg:')) return BACKGROUND_BYTES;
    const s = this.sprites.get(key.slice('sprite:'.length));
    return s ? s.bytes : this.spriteBytes;
  }

  /** The lookahead that fits the budget beside what the screen shows, then the idle work. */
  private plan(): void {
    if (this.disposed) return;
    const kept = this.kept();
    let room = this.budget;
    for (const k of kept) room -= this.estimate(k);
    this.ahead = [];
    if (this.started) {
      for (const k of this.lookahead.next()) {
        if (this.ahead.length >= AHEAD_MAX) break;
        if (kept.has(k)) continue;
        if (this.failed.has(k) || this.path(k) === null) continue;
        const b = this.estimate(k);
        if (b > room) break;
        room -= b;
        this.ahead.push(k);
      }
    }
    this.trim();
    if (this.started) this.kick();
  }

  /** Runs the idle work: the lookahead first, then the first pass. */
  private kick(): void {
    if (this.warming) return;
    this.warming = true;
    void (async () => {
      for (;;) {
        if (this.disposed) break;
        const next = this.ahead.find((k) => !this.isSettled(k) && !this.jobs.has(k)) ?? this.nextFirst();
        if (!next) break;
        await this.job(next, true).done;
      }
      this.warming = false;
    })();
  }

  private nextFirst(): ArtKey | undefined {
    while (this.firstPass.length) {
      const k = this.firstPass.shift()!;
      if (!this.made.has(k) && !this.failed.has(k) && !this.jobs.has(k)) return k;
    }
    return undefined;
  }

  /** Frees rasters until the held bytes fit the budget (never what is shown or pinned). */
  private trim(): void {
    let over = this.heldBytes() - this.budget;
    if (over <= 0) return;
    const kept = this.kept();
    const shown = new Set(this.shown);
    // dimmed copies off the stage first: one draw makes them again
    for (const [id, s] of this.sprites) {
      if (over <= 0) return;
      if (s.hasDim && !shown.has(`sprite:${id}`)) over -= s.dropDim();
    }
    const heldKeys = [...this.backgrounds.keys()].map(bgKey).concat([...this.sprites.keys()].map((id) => `sprite:${id}`));
    const ahead = new Set(this.ahead);
    // then the rasters the story needs last (or never again), the least recently used first
    const dist = new Map(heldKeys.map((k) => [k, this.lookahead.distance(k)]));
    const spare = heldKeys
      .filter((k) => !kept.has(k) && !ahead.has(k))
      .sort((a, b) => dist.get(b)! - dist.get(a)! || (this.used.get(a) ?? 0) - (this.used.get(b) ?? 0));
    // then the farthest of the lookahead (it is not fetched again until the screen changes)
    const far = this.ahead.filter((k) => this.held(k) && !kept.has(k)).reverse();
    for (const k of [...spare, ...far]) {
      if (over <= 0) return;
      over -= this.evict(k);
      this.ahead = this.ahead.filter((a) => a !== k);
    }
  }

  private evict(key: ArtKey): number {
    let b = 0;
    if (key.startsWith('bg:')) {
      const r = this.backgrounds.get(key.slice(3));
      b = rasterBytes(r);
      release(r);
      this.backgrounds.delete(key.slice(3));
    } else {
      const s = this.sprites.get(key.slice('sprite:'.length));
      b = s?.bytes ?? 0;
      s?.dispose();
      this.sprites.delete(key.slice('sprite:'.length));
    }
    this.evicted++;
    return b;
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
          if (this.disposed) return;
          if (key.startsWith('bg:')) {
            const bg = await rasteriseBackground(img);
            // (in Node the raster is made off the thread: the store may be gone by now)
            if (this.disposed) return release(bg);
            this.backgrounds.set(key.slice(3), bg);
          } else {
            // a dimmed copy is made inside a draw: its bytes are counted once that draw is over
            const s = await rasteriseSprite(img, () => queueMicrotask(() => this.trim()));
            if (this.disposed) return s.dispose();
            this.spriteBytes = s.bytes;
            this.sprites.set(key.slice('sprite:'.length), s);
          }
          this.made.add(key);
        } catch (e) {
          this.failed.add(key);
          this.onMissing(key.replace(':', ' '), e);
        } finally {
          this.jobs.delete(key);
        }
        // what a draw or an ensure asked for is kept a while from now (its draw is next)
        if (!inIdle || this.missed.has(key)) this.pin([key]);
        this.trim();
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
