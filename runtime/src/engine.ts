/**
 * The VN engine: the play's state machine — which screen is up (boot, title, story, ending,
 * error), auto and skip, the endings reached, the save slots — over its parts: the story flow
 * (flow.ts: runs ink, applies tags, offers choices), the stage (stage.ts: scene, characters,
 * effects, transitions), the reader (reader.ts: the line, typing, backlog), the menus (menus.ts:
 * overlays, focus, toast) and the sound cues (sound.ts). Input is decoded in input.ts and applied
 * through InputTarget, which this class satisfies; drawing is render.ts + draw/; getState() is
 * status.ts; save states are save.ts.
 */
import type { Story } from 'inkjs';
import type { QualityLevel } from '../../lib/streaming/messages';
import type { Assets } from './assets';
import type { EngineSound } from './audio/engine';
import { Weather } from './effects';
import { Emitter } from './events';
import { StoryFlow, type FlowHost } from './flow';
import type { InputTarget } from './input';
import { Menus, type MenuHost } from './menus';
import { Reader } from './reader';
import { buildSave, parseSave, slotEntry, type SaveSlot } from './save';
import { SoundCues } from './sound';
import { Stage } from './stage';
import { ensureGlyphs } from './text';
import type { BacklogEntry, Choice, EngineEvent, ErrorInfo, GameData, GameMeta, Overlay, Screen, StartOptions, TransitionKind } from './types';
import { SLOT_COUNT } from './ui';

export class Engine implements InputTarget, MenuHost, FlowHost {
  // --- configuration
  readonly gameId: string;
  readonly sessionId: string | null;
  readonly opts: StartOptions;

  // --- content
  game!: GameData;
  meta: GameMeta = {};
  assets!: Assets;
  story!: Story;
  readonly audio: EngineSound;
  title = '';

  // --- parts
  readonly events = new Emitter();
  readonly stage = new Stage(() => (this.dirty = true));
  readonly reader: Reader;
  readonly menus = new Menus(this);
  readonly sound: SoundCues;
  readonly flow = new StoryFlow(this);

  // --- state
  screen: Screen = 'boot';
  endingStart = 0;
  endingsReached = new Set<string>();
  auto = false;
  skip = false;
  ctrlSkip = false;
  windowHidden = false;
  saves = new Map<number, SaveSlot>();
  pointerX = -1;
  pointerY = -1;
  frame = 0;
  quality: QualityLevel = 'high';
  error: string | null = null;
  fontsReady = false;
  ready = false;
  /** Called when `dirty` is set (the frame scheduler wakes: frames.ts). */
  onDirty: (() => void) | null = null;
  private dirtyFlag = true;
  /** Set whenever something visible changed; the renderer clears it. */
  get dirty(): boolean {
    return this.dirtyFlag;
  }
  set dirty(v: boolean) {
    this.dirtyFlag = v;
    if (v) this.onDirty?.();
  }
  private lastSkipStep = 0;

  constructor(opts: StartOptions & { gameId: string }, audio: EngineSound) {
    this.opts = opts;
    this.gameId = opts.gameId;
    this.sessionId = opts.sessionId ?? null;
    this.reader = new Reader(opts.textSpeed && opts.textSpeed > 0 ? opts.textSpeed : 40, opts.autoDelay ?? 1200);
    this.audio = audio;
    this.sound = new SoundCues(audio);
  }

  /** The open overlay (the menus own it). */
  get overlay(): Overlay | null {
    return this.menus.overlay;
  }

  /** The choices on offer (the flow owns them). */
  get choices(): readonly Choice[] {
    return this.flow.choices;
  }

  get backlog(): readonly BacklogEntry[] {
    return this.reader.backlog;
  }

  emit(name: EngineEvent, payload: unknown): void {
    this.events.emit(name, payload);
  }

  // ------------------------------------------------------------------------------------------
  // setup, title, a new play

  setContent(game: GameData, meta: GameMeta, assets: Assets, story: Story): void {
    this.game = game;
    this.meta = meta;
    this.assets = assets;
    this.sound.assets = assets;
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
    this.menus.overlay = null;
    this.resetPlay();
    const ts = this.game.titleScreen ?? {};
    this.stage.titleWeather = ts.effect ? new Weather(ts.effect) : null;
    this.menus.focusId = 'title:new';
    // the title's art is what the screen shows now: kept by the art store, and a return to a
    // title whose art was freed fades in once it is back, as a scene change does (stage.ts)
    this.holdForArt();
    const titleBgm = ts.bgm ?? (this.game.music.title !== undefined ? 'title' : null);
    if (titleBgm) this.sound.playBgm(titleBgm);
    else this.sound.stopBgm();
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
    return this.stage.artKeys(this.assets.art);
  }

  /** A scene or character change whose art is not ready: the transition and the line wait for it. */
  holdForArt(): void {
    this.stage.holdForArt(this.assets.art, this.screenArt(), (back, start) => {
      const line = this.reader.line;
      if (line && line.start > start) line.start -= back;
    });
  }

  private beginTransition(kind: TransitionKind, durMs?: number): void {
    this.stage.beginTransition(kind, durMs, this.skipping());
  }

  private resetPlay(): void {
    this.reader.reset();
    this.stage.clear();
    this.flow.reset();
    this.auto = false;
    this.skip = false;
    this.ctrlSkip = false;
    this.windowHidden = false;
  }

  /** 「はじめから」: a new play from the start of the story. */
  newGame(): void {
    this.beginTransition('fade', 1000);
    this.resetPlay();
    this.story.ResetState();
    this.stage.titleWeather = null;
    this.sound.stopBgm(0.8);
    this.screen = 'story';
    this.menus.overlay = null;
    this.next();
  }

  // ------------------------------------------------------------------------------------------
  // the story (flow.ts runs it; these are its host's side)

  /** Runs the story to the next line of text, choices, or the end. */
  next(): void {
    this.flow.next();
  }

  /** The story has ended: the ending card, then back to the title on a click. */
  finish(): void {
    this.screen = 'ending';
    this.menus.overlay = null;
    this.auto = false;
    this.skip = false;
    this.flow.clear();
    this.endingStart = performance.now();
    const id = this.flow.endingId;
    if (id) this.endingsReached.add(id);
    const info = { gameId: this.gameId, sessionId: this.sessionId, endingId: id, title: this.endingTitle() ?? 'おわり' };
    this.opts.onEnding?.(info);
    this.emit('ending', info);
    this.dirty = true;
  }

  endingTitle(): string | null {
    const id = this.flow.endingId;
    if (!id) return null;
    return this.game.endings[id] ?? id;
  }

  choose(index: number): void {
    const c = this.visibleChoices().find((ch) => ch.index === index);
    if (c) this.flow.choose(c);
  }

  visibleChoices(): Choice[] {
    const choices = this.flow.choices;
    if (this.screen !== 'story' || !choices.length || this.reader.typing()) return [];
    return choices;
  }

  // ------------------------------------------------------------------------------------------
  // the player's controls (input.ts calls these through InputTarget)

  wake(): void {
    this.audio.resume();
  }

  advance(): void {
    if (this.skip) this.setSkip(false);
    if (this.windowHidden) {
      this.windowHidden = false;
      return;
    }
    const now = performance.now();
    const t = this.stage.transition;
    if (t && now - t.start < t.dur) this.stage.transition = null;
    const l = this.reader.line;
    if (l && this.reader.typing(now)) {
      l.instant = true;
      return;
    }
    if (this.choices.length) return;
    this.next();
  }

  endingClicked(): void {
    if (performance.now() - this.endingStart < 1200) return;
    this.showTitle();
  }

  setAuto(on: boolean): void {
    this.auto = on;
    this.reader.resetAuto();
    if (on) this.skip = false;
    this.dirty = true;
  }

  setSkip(on: boolean): void {
    this.skip = on;
    if (on) this.auto = false;
    this.dirty = true;
  }

  skipping(): boolean {
    return this.skip || this.ctrlSkip;
  }

  // ------------------------------------------------------------------------------------------
  // the frame clock

  /** Called every frame before drawing. */
  tick(now: number, dt: number): void {
    this.stage.update(now, dt);
    this.menus.update(now);
    // Not while a screen is open: its digit keys pick a save slot (input.ts), not a choice.
    this.flow.tellChoices(this.visibleChoices().length > 0 && !this.overlay);
    const line = this.reader.line;
    if (this.screen !== 'story' || this.overlay || !line) return;
    if (this.reader.typing(now)) return;
    if (this.skipping()) {
      if (this.choices.length) {
        if (this.skip) this.setSkip(false);
        return;
      }
      if (!line.read && line.text && !this.opts.skipUnread) {
        if (this.skip) {
          this.setSkip(false);
          this.menus.showToast('未読の文章でスキップを止めました');
        }
        return;
      }
      if (now - this.lastSkipStep > 60) {
        this.lastSkipStep = now;
        this.next();
      }
      return;
    }
    if (this.auto && !this.choices.length && this.reader.autoDue(now)) this.next();
  }

  // ------------------------------------------------------------------------------------------
  // save / load

  /** The state of the play right now, or null when not in the story. */
  snapshot(): string | null {
    if (this.screen !== 'story' || !this.story) return null;
    const play = { gameId: this.gameId, ink: this.story.state.toJson(), bgm: this.sound.bgm, ending: this.flow.endingId };
    return JSON.stringify(buildSave(play, this.stage, this.reader));
  }

  autosave(): void {
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
    this.menus.overlayReturn = null;
    this.menus.close();
    this.menus.showToast(`スロット${slot}にセーブしました`);
  }

  putSlot(slot: number, json: string): boolean {
    const entry = slotEntry(this.gameId, slot, json);
    if (!entry) return false;
    this.saves.set(slot, entry);
    this.dirty = true;
    return true;
  }

  loadSlot(slot: number): void {
    const s = this.saves.get(slot);
    if (s) this.loadState(s.json);
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
      this.menus.showToast('セーブデータを読み込めませんでした');
      return false;
    }
    this.beginTransition('fade', 800);
    this.resetPlay();
    this.stage.titleWeather = null;
    this.screen = 'story';
    this.menus.overlay = null;
    this.menus.overlayReturn = null;
    this.stage.restore(s.visual);
    this.flow.endingId = s.visual.ending;
    this.reader.restore(s.backlog, s.lineCount, s.visual.text);
    if (s.visual.bgm) this.sound.playBgm(s.visual.bgm);
    else this.sound.stopBgm(0.5);
    if (s.visual.text) this.flow.showLine(s.visual.text, s.visual.speaker, true);
    else if (this.story.canContinue) this.next();
    else this.flow.showLine('', null, true);
    this.holdForArt();
    this.menus.showToast('ロードしました');
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // fonts, errors

  ensureGlyphs(text: string): void {
    ensureGlyphs(text, () => (this.dirty = true));
  }

  fail(code: ErrorInfo['code'], message: string): void {
    console.error(`[yumecast] ${code}: ${message}`);
    this.error = `${code}: ${message}`;
    this.screen = 'error';
    this.menus.overlay = null;
    this.flow.clear();
    this.dirty = true;
    const info = { code, message };
    this.opts.onError?.(info);
    this.emit('error', info);
  }
}
