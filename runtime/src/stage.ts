/**
 * The stage: what the picture shows under the UI — the scene's background, the characters on it,
 * weather, shake and flash — and the transition that blends a change in from a snapshot of the
 * picture before it. The engine applies the story's visual tags here (and a save's visual state);
 * the renderer (draw/stage.ts) draws it. It knows neither the engine nor the renderer: changes are
 * reported through `changed`, and the snapshot is drawn by whatever the renderer sets.
 */
import type { ArtKey, ArtStore } from './art';
import { Weather } from './effects';
import type { EffectName, TagCommand } from './tags';
import { H, W, type GameData, type Position, type SaveState, type TransitionKind, type WeatherKind } from './types';
import { platform } from './platform';

export interface StageChar {
  id: string;
  expr: string;
  pos: Position;
}

export interface Transition {
  kind: TransitionKind;
  /** May lie ahead: the transition waits on its first frame (the old picture) for art. */
  start: number;
  dur: number;
  from: HTMLCanvasElement;
  /** Waiting for art (holdForArt): `start` was pushed back by up to ART_HOLD_MS. */
  held?: boolean;
}

/** The tags that change what the stage shows (behind one transition per line). */
export type VisualCommand = Extract<TagCommand, { tag: 'scene' | 'char' | 'hide' }>;

const DEFAULT_TRANSITION_MS: Record<TransitionKind, number> = { crossfade: 400, fade: 1000, flash: 600, none: 0 };
/**
 * The longest a scene change waits (on the old picture) for art that is not rasterised yet; it
 * then plays with a placeholder that is replaced when the art lands. One SVG takes ~20-50 ms.
 */
export const ART_HOLD_MS = 800;

export class Stage {
  scene: string | null = null;
  chars: StageChar[] = [];
  weather = new Map<WeatherKind, Weather>();
  titleWeather: Weather | null = null;
  /** A `transition:` tag, waiting for the next visual change. */
  pendingTransition: TransitionKind | null = null;
  transition: Transition | null = null;
  shakeStart = -1e9;
  flashStart = -1e9;
  /** Scene or character changes that waited for their art (holdForArt). */
  artHolds = 0;
  /** Renders the stage (background + characters) into a canvas: set by the renderer. */
  snapshot: ((into: HTMLCanvasElement) => void) | null = null;
  private snapCanvases: HTMLCanvasElement[] = [];

  /** `changed` is called whenever something visible changed (the engine's dirty flag). */
  constructor(private readonly changed: () => void) {}

  /** A new play: nothing on the stage (a running transition and the title's weather stay). */
  clear(): void {
    this.scene = null;
    this.chars = [];
    this.weather.clear();
    this.pendingTransition = null;
  }

  /** Captures the current picture so the next change can be blended from it. `fast`: skipping. */
  beginTransition(kind: TransitionKind, durMs: number | undefined, fast: boolean): void {
    if (kind === 'none') {
      this.transition = null;
      this.changed();
      return;
    }
    let dur = durMs ?? DEFAULT_TRANSITION_MS[kind];
    if (fast) dur = Math.min(dur, 120);
    // two canvases in turn: the snapshot may blend in the transition still running (both are
    // freed when no transition runs: update())
    const from = this.snapCanvases.find((c) => c !== this.transition?.from) ?? platform().createCanvas();
    if (!this.snapCanvases.includes(from)) this.snapCanvases.push(from);
    from.width = W;
    from.height = H;
    this.snapshot?.(from);
    this.transition = { kind, start: performance.now(), dur, from };
    this.changed();
  }

  /** A line's scene/char/hide tags, behind one transition. Returns whether the scene changed. */
  apply(visual: VisualCommand[], game: GameData, fast: boolean): boolean {
    const kind = this.pendingTransition ?? 'crossfade';
    this.pendingTransition = null;
    this.beginTransition(kind, undefined, fast);
    let sceneChanged = false;
    for (const cmd of visual) {
      if (cmd.tag === 'scene') {
        if (!game.backgrounds[cmd.bg]) console.warn('[yumecast] unknown background', cmd.bg);
        this.scene = cmd.bg;
        sceneChanged = true;
      } else if (cmd.tag === 'char') {
        const existing = this.chars.find((c) => c.id === cmd.id);
        if (existing) {
          if (cmd.expr) existing.expr = cmd.expr;
          if (cmd.pos) existing.pos = cmd.pos;
        } else {
          this.chars.push({ id: cmd.id, expr: cmd.expr ?? 'normal', pos: cmd.pos ?? this.freePosition() });
        }
        if (!game.characters[cmd.id]) console.warn('[yumecast] unknown character', cmd.id);
      } else {
        this.chars = cmd.id === 'all' ? [] : this.chars.filter((c) => c.id !== cmd.id);
      }
    }
    return sceneChanged;
  }

  private freePosition(): Position {
    const used = new Set(this.chars.map((c) => c.pos));
    for (const p of ['center', 'left', 'right'] as Position[]) if (!used.has(p)) return p;
    return 'center';
  }

  /** The `effect:` tag: a shake or flash now, or a weather on (or all off). */
  effect(effect: EffectName): void {
    const now = performance.now();
    if (effect === 'shake') this.shakeStart = now;
    else if (effect === 'flash') this.flashStart = now;
    else if (effect === 'none') this.weather.clear();
    else if (!this.weather.has(effect)) this.weather.set(effect, new Weather(effect));
    this.changed();
  }

  /** What a save shows (after clear()). */
  restore(visual: SaveState['visual']): void {
    this.scene = visual.scene;
    this.chars = visual.chars.map((c) => ({ ...c }));
    for (const w of visual.weather) this.weather.set(w, new Weather(w));
  }

  /** The images the stage shows now. */
  artKeys(art: ArtStore): ArtKey[] {
    return art.stageKeys(this.scene, this.chars);
  }

  /**
   * Every change of what the screen shows (`keys`) comes here (the title's too: Engine.showTitle).
   * After a change whose art is not rasterised yet: the transition waits on the old
   * picture until the art is ready, at most ART_HOLD_MS. When the art lands early the transition
   * is moved back by `back` ms and `released(back, start)` lets the caller move what waited with
   * it (the line's typing).
   */
  holdForArt(art: ArtStore, keys: ArtKey[], released: (back: number, start: number) => void): void {
    // the screen shows these now: the store keeps them and looks ahead from them (art.ts)
    art.showing(keys);
    if (art.isReady(keys)) return;
    const t = this.transition;
    const done = art.ensure(keys);
    if (!t || t.held) return;
    const from = t.start;
    t.start = Math.max(t.start, performance.now() + ART_HOLD_MS);
    t.held = true;
    this.artHolds++;
    const pushed = t.start - from;
    void done.then(() => {
      if (this.transition !== t || !t.held) return;
      t.held = false;
      // play it now, and type the line that waited for it as it would have
      const back = Math.min(pushed, Math.max(0, t.start - performance.now()));
      t.start -= back;
      released(back, t.start);
      this.changed();
    });
  }

  /** Called every frame before drawing: weather moves, a finished transition ends. */
  update(now: number, dt: number): void {
    for (const w of this.weather.values()) w.update(dt);
    this.titleWeather?.update(dt);
    if (this.transition && now - this.transition.start >= this.transition.dur) {
      this.transition = null;
      this.changed();
    }
    // no transition (ended, or cut short by a click): the snapshots' pixels (2 × ~3.7 MB) are
    // freed until the next one sizes one again
    if (!this.transition) for (const c of this.snapCanvases) if (c.width) c.width = c.height = 0;
  }

  /** Whether the picture moves by itself now (a transition, weather, a shake or flash). */
  animating(now: number): boolean {
    if (this.transition || this.weather.size || this.titleWeather) return true;
    return now - this.shakeStart < 700 || now - this.flashStart < 600;
  }
}
