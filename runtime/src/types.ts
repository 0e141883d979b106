/**
 * Shapes of the game content (docs/vn-engine.md) and of the engine's public API (`window.yumecast`,
 * YumecastApi: what the game host drives), plus the canvas size every layout is written in. Every
 * other runtime module may import this one; it imports only the streaming protocol's types.
 */
import type { QualityLevel } from '../../lib/streaming/messages';

/** The canvas: 1280×720; all layout and drawing coordinates are in these units. */
export const W = 1280;
export const H = 720;

export type Position = 'left' | 'center' | 'right';
export type TransitionKind = 'fade' | 'crossfade' | 'flash' | 'none';
export type WeatherKind = 'rain' | 'snow' | 'sakura' | 'stars';
export type Instrument = 'piano' | 'pad' | 'bell' | 'bass' | 'pluck' | 'strings';
export type SfxType = 'chime' | 'door' | 'wave' | 'train' | 'page' | 'footsteps' | 'bell' | 'wind';

export interface CharacterDef {
  name: string;
  color?: string;
  sprites?: Record<string, string>;
}

/** `sfx` entries: a parametric spec, or a path to a JSON file holding one. */
export interface SfxSpec {
  type: SfxType;
  volume?: number;
  /** seconds */
  duration?: number;
  /** a note name ("C5") or a frequency in Hz */
  pitch?: string | number;
  /** notes for chimes ("E5", ...) */
  notes?: (string | number)[];
  /** repetitions (footsteps, bell strokes) */
  count?: number;
  /** seconds between repetitions */
  interval?: number;
  [k: string]: unknown;
}

export interface ScoreTrack {
  instrument: Instrument | string;
  volume?: number;
  /** [startBeat, note, lengthBeats, velocity] */
  notes: [number, string | number, number, number?][];
}
export interface Score {
  bpm: number;
  loop?: boolean;
  lengthBeats?: number;
  tracks: ScoreTrack[];
}

export interface GameData {
  title?: string;
  characters: Record<string, CharacterDef>;
  backgrounds: Record<string, string>;
  music: Record<string, string | Score>;
  sfx: Record<string, string | SfxSpec>;
  endings: Record<string, string>;
  /** Optional (engine extension): the title screen's background, music and effect. */
  titleScreen?: { background?: string; bgm?: string; effect?: WeatherKind };
}

export interface GameMeta {
  id?: string;
  title?: string;
  reading?: string;
  brand?: string;
  [k: string]: unknown;
}

export interface StartOptions {
  /** Game id (folder name under games/). Default: the `game` URL parameter. */
  gameId?: string;
  /** Session id, only recorded (and passed back in events). Default: the `session` URL parameter. */
  sessionId?: string;
  /** Base URL of the game's files (game.json, art/, music/). Default `/games/<id>/` (or the `assets` URL parameter). */
  assetBase?: string;
  /** URL of the precompiled story (written by runtime/build.ts). Default `./games/<id>.json` next to the page (or the `story` URL parameter). '' = always compile story.ink. */
  storyUrl?: string;
  /** Resume from this save state (a string from onSave/snapshot) instead of the title screen. */
  state?: string;
  /** Save slots to show under 「つづきから」/ロード (e.g. the ones the server kept). */
  saves?: SaveSlotInput[];
  /** Skip the title screen and begin the story at once. */
  skipTitle?: boolean;
  /** Characters per second of the typing text. Default 40. */
  textSpeed?: number;
  /** Extra ms the auto mode waits after a line (plus 60 ms per character). Default 1200. */
  autoDelay?: number;
  /** Skip mode also skips unread text. Default false (read text only). */
  skipUnread?: boolean;
  /** Master volume 0..1. Default 0.8. */
  volume?: number;
  /** Also play the sound on this machine's speakers (dev); the stream always has it. Default false. */
  monitor?: boolean;
  /** Frames per second of the render loop (at most; `change` mode: while the picture moves). Default 30. */
  fps?: number;
  /** How frames are made (as captureStream's `mode`; the page's `?frames=` or `steady` until set). */
  frames?: FrameMode;
  onReady?: (info: ReadyInfo) => void;
  onSave?: (slot: number, stateJson: string) => void;
  onAutosave?: (stateJson: string) => void;
  onEnding?: (info: EndingInfo) => void;
  onError?: (info: ErrorInfo) => void;
}

export interface SaveSlotInput {
  slot: number;
  stateJson: string;
}

export interface ReadyInfo {
  gameId: string;
  sessionId: string | null;
  title: string;
  /** ms from start() to ready. */
  startMs: number;
  /**
   * ms. `audio`: making the AudioContext (0 when the page had made it while warm); `setup`: up
   * to the first fetch; `files`: game.json, meta.json and the story, fetched and parsed (`parse`:
   * the story's share); then, counted from there and in parallel, `fonts` and `art` (the first
   * screen's images only); `artDeferred`: images left to rasterise in idle time.
   */
  timings: Record<string, number>;
  storySource: 'precompiled' | 'compiled';
  /** start() used what prepare() made for this game (files, story and fonts were ready: `files` 0). */
  prepared: boolean;
}

/** prepare()'s options: the same URLs start() will be given (a start with others loads afresh). */
export interface PrepareOptions {
  /** As StartOptions.assetBase. */
  assetBase?: string;
  /** As StartOptions.storyUrl. */
  storyUrl?: string;
}

/** What prepare() did. */
export interface PrepareInfo {
  gameId: string;
  ok: boolean;
  /** Why not (the game did not load, start() had run, a start for another game dropped it). */
  error?: string;
  /** ms for the whole preparation. */
  ms: number;
  /** ms: `files` (fetch + parse, `parse` the story's share), `sound` (scores, sfx specs), `fonts`, `art` (the title's), `draw` (the title screen ahead), `music` (its loop). */
  timings: Record<string, number>;
}
export interface EndingInfo {
  gameId: string;
  sessionId: string | null;
  endingId: string | null;
  title: string;
}
export interface ErrorInfo {
  code: 'game_not_found' | 'story_compile_failed' | 'story_error' | 'load_failed' | 'internal';
  message: string;
}
export interface SaveInfo {
  slot: number;
  stateJson: string;
}

/**
 * `line` {speaker, name, text, lineCount}: a line shown; `choices` [{index, text}]: the choices on
 * offer, once shown (the line before them typed out; an empty list: none any more); `chosen`
 * {index, text}: the choice the player took; `cleared` (null): the screen shows no line any more
 * (the title, the ending card, the error screen, a new play; docs/play-text.md).
 */
export type EngineEvent = 'ready' | 'ending' | 'save' | 'autosave' | 'error' | 'line' | 'choices' | 'chosen' | 'cleared';

/** What getState() returns (for tests and the host). */
export interface EngineState {
  ready: boolean;
  gameId: string | null;
  sessionId: string | null;
  screen: 'boot' | 'title' | 'story' | 'ending' | 'error';
  overlay: 'menu' | 'save' | 'load' | 'backlog' | 'confirm' | null;
  scene: string | null;
  characters: { id: string; expression: string; position: Position }[];
  speaker: string | null;
  speakerName: string | null;
  /** The whole current line. */
  text: string;
  /** The part of the line typed out so far. */
  visibleText: string;
  typing: boolean;
  choices: { index: number; text: string }[];
  focusedChoice: number;
  ending: string | null;
  endingTitle: string | null;
  endingsReached: string[];
  bgm: string | null;
  effects: string[];
  auto: boolean;
  skip: boolean;
  lineCount: number;
  frame: number;
  /** Moving average of the time one frame takes to draw, ms (main-thread canvas work only). */
  drawMs?: number;
  /** How frames are made (captureStream's `mode`; docs/vn-engine.md "Frames"). */
  frameMode?: FrameMode;
  /** `change` mode: how its tracks get their frames (frames.ts: `frame` written VideoFrames, `canvas` requestFrame). */
  capture?: 'frame' | 'canvas';
  /** `change` mode: video frames requested from the captured tracks (draws + refreshes), per track. */
  videoFrames?: number;
  quality: 'high' | 'medium' | 'low';
  saves: { slot: number; savedAt: string; text: string }[];
  error: string | null;
  fontsReady: boolean;
  /** `music`: the music plays from its rendered loop ('loop'), synthesised ('live'), or none (null; also while its loop loads). */
  /** `loop`: how the playing loop is held: `pcm` (16-bit, in the loop worklet) or `buffer` (decoded, the default); `pcm` with `?loops=pcm`. */
  /** `sfx`: how many sound effects played from the build's files and how many live (audio/sfx-player.ts; absent before a start). */
  /** `output`: where the context plays besides the stream (the page's `?sink`; null before the context is made). */
  /** `sends`: whether a live sound has needed the chain's reverb / delay yet (built on first use: audio/chain.ts; absent before a start). */
  audio: { state: string; currentTime: number; music: 'loop' | 'live' | null; liveBeats?: number; loop: 'pcm' | 'buffer' | null; output: 'device' | 'none' | null; sfx?: { file: number; live: number }; sends?: { reverb: boolean; delay: boolean } };
  /** Lazy art (art.ts): how much is rasterised, and how often play had to wait for it. */
  art?: ArtStats;
  /** Titles prepare() has readied and no start() has used or dropped yet (before start() only). */
  prepared?: string[];
}

/** The state before a game runs (the boot screen): what getState() starts from; a page without the VN engine's game (the host's native runtime) too. */
export function blankEngineState(quality: QualityLevel): EngineState {
  return {
    ready: false,
    gameId: null,
    sessionId: null,
    screen: 'boot',
    overlay: null,
    scene: null,
    characters: [],
    speaker: null,
    speakerName: null,
    text: '',
    visibleText: '',
    typing: false,
    choices: [],
    focusedChoice: -1,
    ending: null,
    endingTitle: null,
    endingsReached: [],
    bgm: null,
    effects: [],
    auto: false,
    skip: false,
    lineCount: 0,
    frame: 0,
    quality,
    saves: [],
    error: null,
    fontsReady: false,
    audio: { state: 'none', currentTime: 0, music: null, loop: null, output: null },
  };
}

export type Screen = EngineState['screen'];
export type Overlay = NonNullable<EngineState['overlay']>;
/** One of the story's choices as offered (ink's choice index, trimmed text). */
export interface Choice {
  index: number;
  text: string;
}

export interface ArtStats {
  /** Images the title declares. */
  total: number;
  /** Images rasterised at least once so far (start() does the first screen's, idle time the rest). */
  rasterised: number;
  failed: number;
  /** Draws that needed an image not rasterised yet (it was then loaded at once). */
  misses: number;
  /** Scene or character changes that waited for their art (at most ART_HOLD_MS each). */
  holds: number;
  /** Rasters held now (art.ts keeps them within `budget` bytes, plus what the screen shows). */
  held: number;
  /** Their bytes (backgrounds, sprites and the sprites' dimmed copies). */
  heldBytes: number;
  /**
   * Of those, what the budget cannot free now: what the screen shows, and art a scene change or a
   * draw asked for in the last 2 s. heldBytes ≤ max(budget, keptBytes).
   */
  keptBytes: number;
  budget: number;
  /** Rasters freed to stay within the budget (made again if needed). */
  evicted: number;
  /** Save slots' thumbnails (small, outside the budget). */
  thumbBytes: number;
}

/** The persisted state of a play (what onSave receives, loadState accepts). */
export interface SaveState {
  format: 'yumecast-vn-save';
  v: 1;
  gameId: string;
  savedAt: string;
  ink: string;
  visual: {
    scene: string | null;
    chars: { id: string; expr: string; pos: Position }[];
    weather: WeatherKind[];
    bgm: string | null;
    speaker: string | null;
    text: string;
    ending: string | null;
  };
  backlog: BacklogEntry[];
  lineCount: number;
}

export interface BacklogEntry {
  speaker: string | null;
  name: string | null;
  color: string | null;
  text: string;
  choice?: boolean;
}

/** How the page makes video frames (docs/vn-engine.md "Frames"). */
export type FrameMode = 'change' | 'steady';

/** captureStream's options. */
export interface CaptureOptions {
  /** `change`: frames only when the picture changes; `steady`: at the engine's draw rate. */
  mode?: FrameMode;
}

/** `window.yumecast`: the page's API (runtime/README.md), driven by the game host. */
export interface YumecastApi {
  version: string;
  start: (options?: StartOptions) => Promise<ReadyInfo>;
  /**
   * Readies a title before its session (a warm page): its files fetched and the story parsed, the
   * fonts, the title screen's art rasterised and its static layer drawn, the title music's loop
   * rendered (`music`). A start() for that game with the same URLs uses it; a start() drops every
   * other preparation. Never rejects (`ok: false` and `error`); a no-op once start() ran.
   */
  prepare: (gameId: string, options?: PrepareOptions) => Promise<PrepareInfo>;
  applyInput: (raw: unknown) => boolean;
  /**
   * The canvas (+ the WebAudio) as a MediaStream. `fps`: the most frames per second; `mode`:
   * `steady` = captureStream(fps), a frame per draw at the engine's rate (before issue 11);
   * `change` = captureStream(0) + requestFrame when the picture changes, plus refresh frames.
   * The mode is the page's (every stream's); switching it switches the drawing loop.
   */
  captureStream: (fps?: number, options?: CaptureOptions) => MediaStream;
  /** `change` mode: a frame of the picture at once and the refining frames after it (a new consumer). */
  refreshFrames: () => void;
  screenshot: () => Promise<string>;
  getState: () => EngineState;
  setQuality: (level: QualityLevel) => void;
  on: (name: EngineEvent, fn: (payload: unknown) => void) => () => void;
  loadState: (json: string) => boolean;
  snapshot: () => string | null;
  setSaves: (slots: SaveSlotInput[]) => number;
  setVolume: (v: number) => void;
}
