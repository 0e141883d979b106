/**
 * The VN engine: runs the ink story, keeps the visual state (scene, characters, effects, text,
 * choices), takes the streaming protocol's input, saves and loads. Drawing is in render.ts.
 */
import type { Story } from 'inkjs';
import type { InputMessage, NamedKey, QualityLevel } from '../../lib/streaming/messages';
import { Assets } from './assets';
import { AudioEngine } from './audio/engine';
import { H, W, Weather } from './effects';
import { parseTag, type TagCommand } from './tags';
import type {
  BacklogEntry,
  EngineEvent,
  EngineState,
  GameData,
  GameMeta,
  Position,
  SaveState,
  StartOptions,
  TransitionKind,
  WeatherKind,
} from './types';
import { SLOT_COUNT, hit, layoutButtons, type Button } from './ui';

export interface StageChar {
  id: string;
  expr: string;
  pos: Position;
}

export interface Line {
  speaker: string | null;
  name: string | null;
  color: string | null;
  text: string;
  chars: string[];
  /** When typing starts (ms, performance.now). */
  start: number;
  /** Shown completely (clicked, skipped, or restored). */
  instant: boolean;
  /** The player had read this line before. */
  read: boolean;
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

export interface SaveSlot {
  json: string;
  savedAt: string;
  text: string;
  scene: string | null;
}

const DEFAULT_TRANSITION_MS: Record<TransitionKind, number> = { crossfade: 400, fade: 1000, flash: 600, none: 0 };
const MAX_BACKLOG = 200;
/**
 * The longest a scene change waits (on the old picture) for art that is not rasterised yet; it
 * then plays with a placeholder that is replaced when the art lands. One SVG takes ~20-50 ms.
 */
export const ART_HOLD_MS = 800;

type Listener = (payload: unknown) => void;

export class Engine {
  // --- configuration
  readonly gameId: string;
  readonly sessionId: string | null;
  readonly opts: StartOptions;
  readonly textSpeed: number;
  readonly autoDelay: number;

  // --- content
  game!: GameData;
  meta: GameMeta = {};
  assets!: Assets;
  story!: Story;
  audio: AudioEngine;
  title = '';

  // --- state
  screen: EngineState['screen'] = 'boot';
  overlay: EngineState['overlay'] = null;
  /** Where the load/save overlay returns to. */
  overlayReturn: EngineState['overlay'] = null;
  scene: string | null = null;
  chars: StageChar[] = [];
  weather = new Map<WeatherKind, Weather>();
  titleWeather: Weather | null = null;
  pendingTransition: TransitionKind | null = null;
  transition: Transition | null = null;
  shakeStart = -1e9;
  flashStart = -1e9;
  line: Line | null = null;
  choices: { index: number; text: string }[] = [];
  focusId: string | null = null;
  endingId: string | null = null;
  endingStart = 0;
  endingsReached = new Set<string>();
  backlog: BacklogEntry[] = [];
  backlogScroll = 0;
  auto = false;
  skip = false;
  ctrlSkip = false;
  windowHidden = false;
  seen = new Set<string>();
  saves = new Map<number, SaveSlot>();
  confirm: { message: string; action: () => void } | null = null;
  toast: { text: string; until: number } | null = null;
  lineCount = 0;
  frame = 0;
  quality: QualityLevel = 'high';
  error: string | null = null;
  fontsReady = false;
  ready = false;
  /** Set whenever something visible changed; the renderer clears it. */
  dirty = true;
  bgm: string | null = null;
  private lastSkipStep = 0;
  private autoAt: number | null = null;
  private lastWheelAdvance = 0;
  private listeners = new Map<string, Set<Listener>>();
  /** Renders the stage (background + characters) into a canvas: set by the renderer. */
  snapshotStage: ((into: HTMLCanvasElement) => void) | null = null;

  /** Also receives every event (the page's window.yumecast listeners). */
  hostEmit: ((name: EngineEvent, payload: unknown) => void) | null = null;

  constructor(opts: StartOptions & { gameId: string }, audio: AudioEngine) {
    this.opts = opts;
    this.gameId = opts.gameId;
    this.sessionId = opts.sessionId ?? null;
    this.textSpeed = opts.textSpeed && opts.textSpeed > 0 ? opts.textSpeed : 40;
    this.autoDelay = opts.autoDelay ?? 1200;
    this.audio = audio;
  }

  // ------------------------------------------------------------------------------------------
  // events

  on(name: EngineEvent, fn: Listener): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  }

  emit(name: EngineEvent, payload: unknown): void {
    for (const fn of this.listeners.get(name) ?? []) {
      try {
        fn(payload);
      } catch (e) {
        console.error('[yumecast] listener failed', e);
      }
    }
    try {
      this.hostEmit?.(name, payload);
    } catch (e) {
      console.error('[yumecast] host listener failed', e);
    }
    try {
      window.dispatchEvent(new CustomEvent(`yumecast:${name}`, { detail: payload }));
    } catch {
      /* no DOM */
    }
  }

  // ------------------------------------------------------------------------------------------
  // setup

  setContent(game: GameData, meta: GameMeta, assets: Assets, story: Story): void {
    this.game = game;
    this.meta = meta;
    this.assets = assets;
    this.story = story;
    this.title = meta.title || game.title || this.gameId;
    story.onError = (message: string) => {
      console.error('[yumecast] ink:', message);
      this.emit('error', { code: 'story_error', message });
    };
  }

  showTitle(): void {
    // fade from what was on screen (this also leaves the title's first, costly draw to the
    // render loop rather than to start())
    this.beginTransition('fade', 900);
    this.screen = 'title';
    this.overlay = null;
    this.resetPlay();
    const ts = this.game.titleScreen ?? {};
    this.titleWeather = ts.effect ? new Weather(ts.effect) : null;
    this.focusId = 'title:new';
    const titleBgm = ts.bgm ?? (this.game.music.title !== undefined ? 'title' : null);
    if (titleBgm) this.playBgm(titleBgm);
    else this.stopBgm();
    this.dirty = true;
  }

  titleBackground(): string | null {
    const art = this.assets.art;
    // declared, and not failed (a failed one would leave the title on a plain gradient)
    const usable = (id: string) => art.stageKeys(id, []).some((k) => !art.hasFailed(k));
    const ts = this.game.titleScreen?.background;
    if (ts && usable(ts)) return ts;
    if (usable('title')) return 'title';
    return Object.keys(this.game.backgrounds).find(usable) ?? null;
  }

  /** The images the current screen shows (what start() rasterises before it is ready). */
  screenArt(): string[] {
    if (this.screen === 'title') return this.assets.art.stageKeys(this.titleBackground(), []);
    return this.assets.art.stageKeys(this.scene, this.chars);
  }

  /**
   * After a scene or character change whose art is not rasterised yet: the transition waits on
   * the old picture (and the line's typing with it) until the art is ready, at most ART_HOLD_MS.
   */
  private holdForArt(): void {
    const art = this.assets.art;
    const keys = this.screenArt();
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
      if (this.line && this.line.start > t.start) this.line.start -= back;
      this.dirty = true;
    });
  }

  private resetPlay(): void {
    this.pausedAt = null;
    this.scene = null;
    this.chars = [];
    this.weather.clear();
    this.pendingTransition = null;
    this.line = null;
    this.choices = [];
    this.endingId = null;
    this.backlog = [];
    this.auto = false;
    this.skip = false;
    this.ctrlSkip = false;
    this.windowHidden = false;
    this.lineCount = 0;
    this.autoAt = null;
  }

  /** 「はじめから」: a new play from the start of the story. */
  newGame(): void {
    this.beginTransition('fade', 1000);
    this.resetPlay();
    this.story.ResetState();
    this.titleWeather = null;
    this.stopBgm(0.8);
    this.screen = 'story';
    this.overlay = null;
    this.next();
  }

  // ------------------------------------------------------------------------------------------
  // story flow

  /** Runs the story to the next line of text, choices, or the end. */
  next(): void {
    this.autoAt = null;
    this.windowHidden = false;
    for (let guard = 0; guard < 10000; guard++) {
      if (this.story.canContinue) {
        let text: string;
        try {
          text = this.story.Continue() ?? '';
        } catch (e) {
          this.fail('story_error', e instanceof Error ? e.message : String(e));
          return;
        }
        const speaker = this.applyTags(this.story.currentTags ?? []);
        text = text.replace(/\s+$/u, '').replace(/^\s+/u, '');
        if (!text) continue;
        this.showLine(text, speaker);
        return;
      }
      if (this.story.currentChoices.length > 0) {
        this.showLine('', null, true);
        return;
      }
      this.finishStory();
      return;
    }
    this.fail('story_error', 'the story never produced a line');
  }

  private showLine(text: string, speaker: string | null, instant = false): void {
    const now = performance.now();
    const def = speaker ? this.game.characters[speaker] : undefined;
    const name = speaker ? (def?.name ?? speaker) : null;
    const key = `${speaker ?? ''}|${text}`;
    const read = this.seen.has(key);
    if (text) this.seen.add(key);
    let start = now;
    if (this.transition && this.transition.kind === 'fade') start = this.transition.start + this.transition.dur * 0.9;
    else if (this.transition && this.sceneJustChanged) start = this.transition.start + this.transition.dur * 0.5;
    this.sceneJustChanged = false;
    this.line = {
      speaker,
      name,
      color: def?.color ?? null,
      text,
      chars: Array.from(text),
      start,
      instant: instant || this.skipping(),
      read,
    };
    if (text) {
      this.lineCount++;
      this.backlog.push({ speaker, name, color: def?.color ?? null, text });
      if (this.backlog.length > MAX_BACKLOG) this.backlog.splice(0, this.backlog.length - MAX_BACKLOG);
      this.emit('line', { speaker, name, text, lineCount: this.lineCount });
      this.ensureGlyphs(text);
      if (this.lineCount % 10 === 0) this.autosave();
    }
    this.choices = !this.story.canContinue
      ? this.story.currentChoices.map((c) => ({ index: c.index, text: c.text.trim() }))
      : [];
    if (this.choices.length) {
      this.emit('choices', this.choices.map((c) => ({ ...c })));
      this.focusId = `choice:${this.choices[0].index}`;
      this.ensureGlyphs(this.choices.map((c) => c.text).join(''));
    }
    this.dirty = true;
  }

  /** Scene or character changes that waited for their art (holdForArt). */
  private artHolds = 0;
  private sceneJustChanged = false;
  private snapCanvases: HTMLCanvasElement[] = [];

  /** Applies one line's tags. Returns the speaker. */
  private applyTags(tags: string[]): string | null {
    let speaker: string | null = null;
    const visual: TagCommand[] = [];
    for (const raw of tags) {
      const cmd = parseTag(raw);
      if (!cmd) {
        console.warn('[yumecast] unknown tag:', raw);
        continue;
      }
      switch (cmd.tag) {
        case 'transition':
          this.pendingTransition = cmd.kind;
          break;
        case 'scene':
        case 'char':
        case 'hide':
          visual.push(cmd);
          break;
        case 'speaker':
          speaker = cmd.id;
          break;
        case 'bgm':
          if (cmd.track) this.playBgm(cmd.track);
          else this.stopBgm();
          break;
        case 'se':
          if (!this.skipping()) this.playSe(cmd.sfx);
          break;
        case 'effect':
          this.applyEffect(cmd.effect);
          break;
        case 'ending':
          this.endingId = cmd.id;
          break;
      }
    }
    if (visual.length) {
      const kind = this.pendingTransition ?? 'crossfade';
      this.pendingTransition = null;
      this.beginTransition(kind);
      for (const cmd of visual) {
        if (cmd.tag === 'scene') {
          if (!this.game.backgrounds[cmd.bg]) console.warn('[yumecast] unknown background', cmd.bg);
          this.scene = cmd.bg;
          this.sceneJustChanged = true;
        } else if (cmd.tag === 'char') {
          const existing = this.chars.find((c) => c.id === cmd.id);
          if (existing) {
            if (cmd.expr) existing.expr = cmd.expr;
            if (cmd.pos) existing.pos = cmd.pos;
          } else {
            this.chars.push({ id: cmd.id, expr: cmd.expr ?? 'normal', pos: cmd.pos ?? this.freePosition() });
          }
          if (!this.game.characters[cmd.id]) console.warn('[yumecast] unknown character', cmd.id);
        } else if (cmd.tag === 'hide') {
          this.chars = cmd.id === 'all' ? [] : this.chars.filter((c) => c.id !== cmd.id);
        }
      }
      if (visual.some((c) => c.tag === 'scene')) this.autosave();
      this.holdForArt();
    }
    return speaker;
  }

  private freePosition(): Position {
    const used = new Set(this.chars.map((c) => c.pos));
    for (const p of ['center', 'left', 'right'] as Position[]) if (!used.has(p)) return p;
    return 'center';
  }

  private applyEffect(effect: 'shake' | 'flash' | WeatherKind | 'none'): void {
    const now = performance.now();
    if (effect === 'shake') this.shakeStart = now;
    else if (effect === 'flash') this.flashStart = now;
    else if (effect === 'none') this.weather.clear();
    else if (!this.weather.has(effect)) this.weather.set(effect, new Weather(effect));
    this.dirty = true;
  }

  /** Captures the current stage so the next change can be blended from it. */
  beginTransition(kind: TransitionKind, durMs?: number): void {
    if (kind === 'none') {
      this.transition = null;
      this.dirty = true;
      return;
    }
    let dur = durMs ?? DEFAULT_TRANSITION_MS[kind];
    if (this.skipping()) dur = Math.min(dur, 120);
    // two canvases in turn: the snapshot may blend in the transition still running
    const from = this.snapCanvases.find((c) => c !== this.transition?.from) ?? document.createElement('canvas');
    if (!this.snapCanvases.includes(from)) this.snapCanvases.push(from);
    from.width = W;
    from.height = H;
    this.snapshotStage?.(from);
    this.transition = { kind, start: performance.now(), dur, from };
    this.dirty = true;
  }

  private finishStory(): void {
    this.screen = 'ending';
    this.overlay = null;
    this.auto = false;
    this.skip = false;
    this.choices = [];
    this.endingStart = performance.now();
    const id = this.endingId;
    if (id) this.endingsReached.add(id);
    const info = {
      gameId: this.gameId,
      sessionId: this.sessionId,
      endingId: id,
      title: this.endingTitle() ?? 'おわり',
    };
    this.opts.onEnding?.(info);
    this.emit('ending', info);
    this.dirty = true;
  }

  endingTitle(): string | null {
    if (!this.endingId) return null;
    return this.game.endings[this.endingId] ?? this.endingId;
  }

  choose(index: number): void {
    const c = this.visibleChoices().find((ch) => ch.index === index);
    if (!c) return;
    this.backlog.push({ speaker: null, name: null, color: null, text: c.text, choice: true });
    try {
      this.story.ChooseChoiceIndex(index);
    } catch (e) {
      this.fail('story_error', e instanceof Error ? e.message : String(e));
      return;
    }
    this.choices = [];
    this.focusId = null;
    this.playSe('__choice');
    this.next();
    this.autosave();
  }

  // ------------------------------------------------------------------------------------------
  // typing, auto, skip

  visibleCount(now = performance.now()): number {
    const l = this.line;
    if (!l) return 0;
    if (l.instant) return l.chars.length;
    const t = this.pausedAt ?? now;
    const n = Math.floor(((t - l.start) * this.textSpeed) / 1000);
    return Math.max(0, Math.min(l.chars.length, n));
  }

  typing(now = performance.now()): boolean {
    return !!this.line && this.visibleCount(now) < this.line.chars.length;
  }

  visibleChoices(): { index: number; text: string }[] {
    if (this.screen !== 'story' || !this.choices.length || this.typing()) return [];
    return this.choices;
  }

  skipping(): boolean {
    return this.skip || this.ctrlSkip;
  }

  /** Called every frame before drawing. */
  tick(now: number, dt: number): void {
    for (const w of this.weather.values()) w.update(dt);
    this.titleWeather?.update(dt);
    if (this.transition && now - this.transition.start >= this.transition.dur) {
      this.transition = null;
      this.dirty = true;
    }
    if (this.toast && now > this.toast.until) {
      this.toast = null;
      this.dirty = true;
    }
    if (this.screen !== 'story' || this.overlay || !this.line) return;
    if (this.typing(now)) return;
    if (this.skipping()) {
      if (this.choices.length) {
        if (this.skip) this.setSkip(false);
        return;
      }
      if (!this.line.read && this.line.text && !this.opts.skipUnread) {
        if (this.skip) {
          this.setSkip(false);
          this.showToast('未読の文章でスキップを止めました');
        }
        return;
      }
      if (now - this.lastSkipStep > 60) {
        this.lastSkipStep = now;
        this.next();
      }
      return;
    }
    if (this.auto && !this.choices.length) {
      const doneAt = this.line.instant ? now : this.line.start + (this.line.chars.length * 1000) / this.textSpeed;
      if (this.autoAt === null) this.autoAt = Math.max(now, doneAt) + this.autoDelay + this.line.chars.length * 60;
      if (now >= this.autoAt) this.next();
    }
  }

  /** Whether the next frames change by themselves (animation), and how fast they need drawing. */
  animationFps(now: number): number {
    if (this.transition || this.weather.size || this.titleWeather) return 30;
    if (now - this.shakeStart < 700 || now - this.flashStart < 600) return 30;
    if (this.screen === 'story' && this.typing(now)) return 30;
    if (this.screen === 'ending' && now - this.endingStart < 2000) return 30;
    if (this.toast || this.auto || this.skipping()) return 15;
    // the click-to-continue indicator bobs; the title's focus glow pulses
    return 12;
  }

  // ------------------------------------------------------------------------------------------
  // input

  /** Applies one input message of the streaming protocol (already validated). */
  input(msg: InputMessage): void {
    this.audio.resume();
    if (!this.ready) return;
    if (msg.type !== 'pointer' || msg.kind !== 'move') this.dirty = true;
    switch (msg.type) {
      case 'pointer':
        this.pointer(msg.kind, msg.x * W, msg.y * H, msg.button ?? 0);
        break;
      case 'key':
        if (msg.kind === 'down') this.keyDown(msg.key);
        else if (msg.key === 'Control') this.ctrlSkip = false;
        break;
      case 'wheel':
        this.wheel(msg.dy);
        break;
    }
  }

  pointerX = -1;
  pointerY = -1;

  private pointer(kind: 'down' | 'up' | 'move', x: number, y: number, button: number): void {
    this.pointerX = x;
    this.pointerY = y;
    const buttons = layoutButtons(this);
    const over = buttons.find((b) => b.enabled && hit(b, x, y));
    if (kind === 'move') {
      const before = this.focusId;
      if (over && over.focusable) this.focusId = over.id;
      // redraw only when the highlight changes (hover over buttons)
      if (this.focusId !== before || buttons.some((b) => b.kind === 'quick' && hit(b, x, y)) || y > 660) this.dirty = true;
      return;
    }
    if (kind !== 'down') return;
    if (button === 2) {
      this.back();
      return;
    }
    if (button !== 0) return;
    if (over) {
      this.activate(over);
      return;
    }
    if (buttons.some((b) => !b.enabled && hit(b, x, y))) return;
    // a click outside any button
    if (this.screen === 'ending') {
      this.endingClicked();
      return;
    }
    if (this.overlay === 'backlog') {
      this.closeOverlay();
      return;
    }
    if (this.overlay) return;
    if (this.screen === 'story') this.advance();
  }

  private keyDown(key: NamedKey): void {
    const buttons = layoutButtons(this);
    const focusable = buttons.filter((b) => b.focusable && b.enabled);
    switch (key) {
      case 'Enter':
      case 'Space': {
        const focused = focusable.find((b) => b.id === this.focusId);
        if (focused) return this.activate(focused);
        if (this.screen === 'ending') return this.endingClicked();
        if (this.overlay === 'backlog') return this.closeOverlay();
        if (this.screen === 'story' && !this.overlay) {
          if (this.visibleChoices().length && focusable[0]) return this.activate(focusable[0]);
          return this.advance();
        }
        if (focusable[0]) {
          this.focusId = focusable[0].id;
        }
        return;
      }
      case 'ArrowUp':
      case 'ArrowDown':
      case 'ArrowLeft':
      case 'ArrowRight': {
        if (this.overlay === 'backlog') {
          this.scrollBacklog(key === 'ArrowUp' ? -60 : key === 'ArrowDown' ? 60 : 0);
          return;
        }
        if (!focusable.length) {
          if (key === 'ArrowUp' && this.screen === 'story' && !this.overlay) this.openOverlay('backlog');
          return;
        }
        const i = focusable.findIndex((b) => b.id === this.focusId);
        let step = key === 'ArrowUp' || key === 'ArrowLeft' ? -1 : 1;
        if ((this.overlay === 'save' || this.overlay === 'load') && (key === 'ArrowUp' || key === 'ArrowDown')) step *= 3;
        const j = i < 0 ? (step > 0 ? 0 : focusable.length - 1) : Math.max(0, Math.min(focusable.length - 1, i + step));
        this.focusId = focusable[j].id;
        return;
      }
      case 'Escape':
      case 'Menu':
      case 'Backspace':
        if (key === 'Menu' && !this.overlay && this.screen === 'story') return this.openOverlay('menu');
        return this.back();
      case 'PageUp':
      case 'Backlog':
      case 'l':
        if (this.overlay === 'backlog') {
          if (key === 'PageUp') this.scrollBacklog(-400);
          else this.closeOverlay();
          return;
        }
        if (this.screen === 'story' && !this.overlay) this.openOverlay('backlog');
        return;
      case 'PageDown':
        if (this.overlay === 'backlog') this.scrollBacklog(400);
        return;
      case 'Auto':
      case 'a':
        if (this.screen === 'story') this.setAuto(!this.auto);
        return;
      case 'Skip':
      case 's':
        if (this.screen === 'story') this.setSkip(!this.skip);
        return;
      case 'Control':
        if (this.screen === 'story' && !this.overlay) this.ctrlSkip = true;
        return;
      case 'Save':
        if (this.screen === 'story') this.openOverlay('save');
        return;
      case 'Load':
        if ((this.screen === 'story' || this.screen === 'title') && this.saves.size) this.openOverlay('load');
        return;
      case 'h':
        if (this.screen === 'story' && !this.overlay) this.windowHidden = !this.windowHidden;
        return;
      default:
        if (/^[1-9]$/.test(key)) {
          const n = Number(key);
          if (this.overlay === 'save' || this.overlay === 'load') {
            const b = buttons.find((x) => x.id === `slot:${n}` && x.enabled);
            if (b) this.activate(b);
          } else if (this.screen === 'story' && !this.overlay) {
            const c = this.visibleChoices()[n - 1];
            if (c) this.choose(c.index);
          }
        }
    }
  }

  private wheel(dy: number): void {
    if (this.overlay === 'backlog') {
      if (dy > 0 && this.backlogScroll >= this.backlogMaxScroll - 1) this.closeOverlay();
      else this.scrollBacklog(dy);
      return;
    }
    if (this.overlay || this.screen !== 'story') return;
    if (dy < 0) {
      if (this.backlog.length) this.openOverlay('backlog');
    } else if (dy > 0) {
      const now = performance.now();
      if (now - this.lastWheelAdvance > 180 && !this.visibleChoices().length) {
        this.lastWheelAdvance = now;
        this.advance();
      }
    }
  }

  /** Set by the renderer from the backlog's laid-out height. */
  backlogMaxScroll = 0;

  private scrollBacklog(dy: number): void {
    this.backlogScroll = Math.max(0, Math.min(this.backlogMaxScroll, this.backlogScroll + dy));
  }

  /** Click / Enter while reading: finish the transition and the line, or go on. */
  advance(): void {
    if (this.skip) this.setSkip(false);
    if (this.windowHidden) {
      this.windowHidden = false;
      return;
    }
    const now = performance.now();
    if (this.transition && now - this.transition.start < this.transition.dur) {
      this.transition = null;
    }
    const l = this.line;
    if (l && this.typing(now)) {
      l.instant = true;
      return;
    }
    if (this.choices.length) return;
    this.next();
  }

  private endingClicked(): void {
    if (performance.now() - this.endingStart < 1200) return;
    this.showTitle();
  }

  private activate(b: Button): void {
    if (!b.enabled) return;
    const [group, arg] = b.id.split(':');
    switch (group) {
      case 'title':
        if (arg === 'new') this.newGame();
        else if (arg === 'continue') this.openOverlay('load');
        return;
      case 'choice':
        return this.choose(Number(arg));
      case 'quick':
        switch (arg) {
          case 'log':
            return this.openOverlay('backlog');
          case 'auto':
            return this.setAuto(!this.auto);
          case 'skip':
            return this.setSkip(!this.skip);
          case 'save':
            return this.openOverlay('save');
          case 'load':
            return this.openOverlay('load');
          case 'menu':
            return this.openOverlay('menu');
        }
        return;
      case 'menu':
        switch (arg) {
          case 'save':
            return this.openOverlay('save', 'menu');
          case 'load':
            return this.openOverlay('load', 'menu');
          case 'backlog':
            return this.openOverlay('backlog', 'menu');
          case 'auto':
            this.setAuto(!this.auto);
            return this.closeOverlay();
          case 'skip':
            this.setSkip(!this.skip);
            return this.closeOverlay();
          case 'title':
            this.confirm = { message: 'タイトルに戻りますか？', action: () => this.showTitle() };
            this.overlayReturn = 'menu';
            this.overlay = 'confirm';
            this.focusId = 'confirm:no';
            return;
          case 'close':
            return this.closeOverlay();
        }
        return;
      case 'slot': {
        const slot = Number(arg);
        if (this.overlay === 'save') {
          if (this.saves.has(slot)) {
            this.confirm = { message: `スロット${slot}に上書きしますか？`, action: () => this.saveToSlot(slot) };
            this.overlayReturn = 'save';
            this.overlay = 'confirm';
            this.focusId = 'confirm:yes';
          } else {
            this.saveToSlot(slot);
          }
        } else if (this.overlay === 'load') {
          const s = this.saves.get(slot);
          if (s) this.loadState(s.json);
        }
        return;
      }
      case 'confirm':
        if (arg === 'yes' && this.confirm) {
          const action = this.confirm.action;
          this.confirm = null;
          this.overlay = null;
          this.overlayReturn = null;
          this.pausedAt = null;
          action();
        } else {
          this.confirm = null;
          this.closeOverlay();
        }
        return;
      case 'back':
        return this.closeOverlay();
    }
  }

  setAuto(on: boolean): void {
    this.auto = on;
    this.autoAt = null;
    if (on) this.skip = false;
    this.dirty = true;
  }

  setSkip(on: boolean): void {
    this.skip = on;
    if (on) this.auto = false;
    this.dirty = true;
  }

  openOverlay(o: NonNullable<EngineState['overlay']>, returnTo: EngineState['overlay'] = null): void {
    if (o === 'save' && this.screen !== 'story') return;
    if (o === 'backlog') this.backlogScroll = Number.MAX_SAFE_INTEGER;
    if (!this.overlay && this.pausedAt === null) this.pausedAt = performance.now();
    this.overlay = o;
    this.overlayReturn = returnTo;
    this.ctrlSkip = false;
    const first = layoutButtons(this).find((b) => b.focusable && b.enabled);
    this.focusId = o === 'menu' ? 'menu:close' : (first?.id ?? null);
    this.dirty = true;
  }

  closeOverlay(): void {
    const ret = this.overlayReturn;
    this.overlay = null;
    this.overlayReturn = null;
    this.confirm = null;
    if (ret) return this.openOverlay(ret);
    this.resume();
    this.focusId = this.screen === 'title' ? 'title:new' : this.choices.length ? `choice:${this.choices[0].index}` : null;
    this.dirty = true;
  }

  /** Typing and auto stand still while an overlay is open. */
  private pausedAt: number | null = null;

  private resume(): void {
    if (this.pausedAt === null) return;
    const d = performance.now() - this.pausedAt;
    this.pausedAt = null;
    if (this.line && !this.line.instant) this.line.start += d;
    if (this.autoAt !== null) this.autoAt += d;
  }

  /** Right click / Escape: close the top overlay, or open the menu. */
  private back(): void {
    if (this.overlay) return this.closeOverlay();
    if (this.screen === 'story') {
      if (this.windowHidden) {
        this.windowHidden = false;
        return;
      }
      this.openOverlay('menu');
    }
  }

  showToast(text: string, ms = 2200): void {
    this.toast = { text, until: performance.now() + ms };
    this.ensureGlyphs(text);
    this.dirty = true;
  }

  // ------------------------------------------------------------------------------------------
  // sound

  playBgm(id: string): void {
    this.bgm = id;
    void this.assets.score(id).then((score) => {
      if (!score) {
        console.warn('[yumecast] unknown music', id);
        return;
      }
      if (this.bgm === id) this.audio.playMusic(id, score);
    });
  }

  stopBgm(fade = 1.5): void {
    this.bgm = null;
    this.audio.stopMusic(fade);
  }

  playSe(id: string): void {
    if (id === '__choice') {
      this.audio.playSfx({ type: 'page', volume: 0.35 });
      return;
    }
    void this.assets.sfxSpec(id).then((spec) => {
      if (spec) this.audio.playSfx(spec);
      else console.warn('[yumecast] unknown sfx', id);
    });
  }

  // ------------------------------------------------------------------------------------------
  // save / load

  /** The state of the play right now, or null when not in the story. */
  snapshot(): string | null {
    if (this.screen !== 'story' || !this.story) return null;
    const state: SaveState = {
      format: 'yumecast-vn-save',
      v: 1,
      gameId: this.gameId,
      savedAt: new Date().toISOString(),
      ink: this.story.state.toJson(),
      visual: {
        scene: this.scene,
        chars: this.chars.map((c) => ({ id: c.id, expr: c.expr, pos: c.pos })),
        weather: [...this.weather.keys()],
        bgm: this.bgm,
        speaker: this.line?.speaker ?? null,
        text: this.line?.text ?? '',
        ending: this.endingId,
      },
      backlog: this.backlog.slice(-60),
      lineCount: this.lineCount,
    };
    return JSON.stringify(state);
  }

  private autosave(): void {
    const json = this.snapshot();
    if (!json) return;
    this.opts.onAutosave?.(json);
    this.emit('autosave', json);
  }

  saveToSlot(slot: number): void {
    const json = this.snapshot();
    if (!json || slot < 1 || slot > SLOT_COUNT) return;
    this.putSlot(slot, json);
    this.opts.onSave?.(slot, json);
    this.emit('save', { slot, stateJson: json });
    this.overlayReturn = null;
    this.closeOverlay();
    this.showToast(`スロット${slot}にセーブしました`);
  }

  putSlot(slot: number, json: string): boolean {
    const s = parseSave(json);
    if (!s || s.gameId !== this.gameId || slot < 1 || slot > SLOT_COUNT) return false;
    this.saves.set(slot, { json, savedAt: s.savedAt, text: s.visual.text, scene: s.visual.scene });
    this.dirty = true;
    return true;
  }

  /** Resumes a saved play. Returns false (and changes nothing) if the state is not usable. */
  loadState(json: string): boolean {
    const s = parseSave(json);
    if (!s || s.gameId !== this.gameId) return false;
    try {
      this.story.ResetState();
      this.story.state.LoadJson(s.ink);
    } catch (e) {
      console.error('[yumecast] loadState failed', e);
      this.story.ResetState();
      this.showToast('セーブデータを読み込めませんでした');
      return false;
    }
    this.beginTransition('fade', 800);
    this.resetPlay();
    this.titleWeather = null;
    this.screen = 'story';
    this.overlay = null;
    this.overlayReturn = null;
    this.scene = s.visual.scene;
    this.chars = s.visual.chars.map((c) => ({ ...c }));
    for (const w of s.visual.weather) this.weather.set(w, new Weather(w));
    this.endingId = s.visual.ending;
    this.backlog = s.backlog.slice();
    if (s.backlog.length && s.backlog[s.backlog.length - 1].text === s.visual.text) this.backlog.pop();
    this.lineCount = Math.max(0, s.lineCount - 1);
    if (s.visual.bgm) this.playBgm(s.visual.bgm);
    else this.stopBgm(0.5);
    if (s.visual.text) this.showLine(s.visual.text, s.visual.speaker, true);
    else if (this.story.canContinue) this.next();
    else this.showLine('', null, true);
    this.holdForArt();
    this.showToast('ロードしました');
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // fonts, errors

  private ensureGlyphs(text: string): void {
    if (!document.fonts) return;
    const fams = ['400 30px "Noto Sans JP"', '700 30px "Noto Sans JP"'];
    for (const f of fams) {
      if (!document.fonts.check(f, text)) {
        void document.fonts.load(f, text).then(() => {
          this.dirty = true;
        });
      }
    }
  }

  fail(code: 'story_error' | 'load_failed' | 'game_not_found' | 'story_compile_failed' | 'internal', message: string): void {
    console.error(`[yumecast] ${code}: ${message}`);
    this.error = `${code}: ${message}`;
    this.screen = 'error';
    this.overlay = null;
    this.dirty = true;
    const info = { code, message };
    this.opts.onError?.(info);
    this.emit('error', info);
  }

  // ------------------------------------------------------------------------------------------
  // state for tests and the host

  getState(): EngineState {
    const now = performance.now();
    const vis = this.line ? this.line.chars.slice(0, this.visibleCount(now)).join('') : '';
    return {
      ready: this.ready,
      gameId: this.gameId,
      sessionId: this.sessionId,
      screen: this.screen,
      overlay: this.overlay,
      scene: this.scene,
      characters: this.chars.map((c) => ({ id: c.id, expression: c.expr, position: c.pos })),
      speaker: this.line?.speaker ?? null,
      speakerName: this.line?.name ?? null,
      text: this.line?.text ?? '',
      visibleText: vis,
      typing: this.typing(now),
      choices: this.visibleChoices().map((c) => ({ ...c })),
      focusedChoice: this.focusId?.startsWith('choice:') ? Number(this.focusId.slice(7)) : -1,
      ending: this.screen === 'ending' ? this.endingId : null,
      endingTitle: this.screen === 'ending' ? (this.endingTitle() ?? 'おわり') : null,
      endingsReached: [...this.endingsReached],
      bgm: this.bgm,
      effects: [...this.weather.keys()],
      auto: this.auto,
      skip: this.skip,
      lineCount: this.lineCount,
      frame: this.frame,
      quality: this.quality,
      saves: [...this.saves.entries()].sort((a, b) => a[0] - b[0]).map(([slot, s]) => ({ slot, savedAt: s.savedAt, text: s.text })),
      error: this.error,
      fontsReady: this.fontsReady,
      audio: { state: this.audio.ctx.state, currentTime: this.audio.ctx.currentTime },
      art: this.assets?.art.stats(this.artHolds),
    };
  }
}

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
