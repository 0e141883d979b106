/**
 * The page: window.yumecast (YumecastApi, types.ts), what it draws (the frame scheduler in
 * frames.ts decides when: `steady` or `change` mode), and (for development in a normal browser,
 * via dom-input.ts) DOM mouse/keyboard input. The game host drives it with prepare() (a warm
 * page readies titles ahead: prepare.ts), start(), applyInput() (decoded and applied by
 * input.ts), captureStream(fps, { mode }), refreshFrames().
 */
import { isInputMessage, parsePlayerMessage, type PlayerMessage, type QualityLevel } from '../../lib/streaming/messages';
import { artOrder } from './art';
import { AudioEngine } from './audio/engine';
import { GAME_ID_RE, gameUrls, loadContent, preloadFonts, type Content } from './content';
import { attachDomInput } from './dom-input';
import { idle } from './draw/common';
import { Engine } from './engine';
import { FrameScheduler, type FrameMode, type FramePainter } from './frames';
import { InputHandler } from './input';
import { nextChangeAt, steadyFps } from './pace';
import { pageOptions } from './page-options';
import { preparedGames, prepareGame, takePrepared, type Prepared } from './prepare';
import { Renderer } from './render';
import { engineState } from './status';
import { StoryCompileError } from './story';
import { font } from './text';
import { H, W, blankEngineState, type EngineEvent, type EngineState, type ReadyInfo, type SaveSlotInput, type StartOptions, type YumecastApi, type CaptureOptions } from './types';

/** The API's type lives in types.ts; re-exported for code that imported it from here. */
export type { YumecastApi } from './types';

export const RUNTIME_VERSION = '1.0.0';

const canvas = (document.getElementById('screen') as HTMLCanvasElement | null) ?? createCanvas();
function createCanvas(): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.id = 'screen';
  document.body.appendChild(c);
  return c;
}
canvas.width = W;
canvas.height = H;
const ctx2d = canvas.getContext('2d', { alpha: false })!;
ctx2d.fillStyle = '#000';
ctx2d.fillRect(0, 0, W, H);

let audio: AudioEngine | null = null;
function getAudio(): AudioEngine {
  if (!audio) audio = new AudioEngine({ volume: 0.8 });
  return audio;
}
// Making the AudioContext and its reverb takes ~0.1-0.4 s in headless Chromium: a warm runtime
// does it while it waits for a session, not inside start().
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => getAudio(), { timeout: 2000 });

let engine: Engine | null = null;
let renderer: Renderer | null = null;
/** Decodes applyInput's messages and applies them to the engine (input.ts). */
let input: InputHandler | null = null;
let startPromise: Promise<ReadyInfo> | null = null;
let quality: QualityLevel = 'high';
const listeners = new Map<string, Set<(payload: unknown) => void>>();

function emit(name: EngineEvent, payload: unknown): void {
  for (const fn of listeners.get(name) ?? []) {
    try {
      fn(payload);
    } catch (e) {
      console.error('[yumecast] listener failed', e);
    }
  }
  // A binding the host may expose before the page loads (playwright exposeBinding).
  const bridge = (window as unknown as { __yumecastEvent?: (n: string, p: unknown) => unknown }).__yumecastEvent;
  if (typeof bridge === 'function') {
    try {
      void Promise.resolve(bridge(name, payload)).catch(() => undefined);
    } catch {
      /* the host went away */
    }
  }
}

// ---------------------------------------------------------------------------------------------
// drawing: frames.ts schedules it (mode `steady`: a loop at the engine's rate; `change`: only when
// the picture changes); pace.ts says how fast the engine needs it

const KEEPALIVE_FPS = 5;

function drawBoot(now: number): void {
  ctx2d.fillStyle = '#000';
  ctx2d.fillRect(0, 0, W, H);
  if (startPromise) {
    ctx2d.fillStyle = 'rgba(255,255,255,0.6)';
    ctx2d.font = font(18);
    ctx2d.textAlign = 'right';
    ctx2d.fillText(`NOW LOADING${'.'.repeat(1 + (Math.floor(now / 400) % 3))}`, W - 40, H - 36);
    ctx2d.textAlign = 'left';
  }
}

const painter: FramePainter = {
  draw(now) {
    if (engine && renderer) renderer.draw(now);
    else drawBoot(now);
  },
  steadyFps(now) {
    const e = engine;
    let fps = KEEPALIVE_FPS;
    if (e && renderer) fps = e.dirty ? 60 : Math.max(KEEPALIVE_FPS, steadyFps(e, now));
    else if (startPromise) fps = 10;
    return Math.min(fps, e?.dirty ? 60 : scheduler.maxFps);
  },
  nextChangeAt(now) {
    if (engine && renderer) return nextChangeAt(engine, now);
    // the boot screen: its loading dots (before start(): black, still)
    return startPromise ? (Math.floor(now / 400) + 1) * 400 : Infinity;
  },
};
const scheduler = new FrameScheduler(canvas, ctx2d, painter);
// `?capture=canvas`: the `change` tracks are the canvas's captureStream(0) + requestFrame (the way
// before); default `frame`: VideoFrames of the canvas written to a track generator (frames.ts)
scheduler.capturePath = pageOptions().capture;

/** (The host's page hides the canvas from layout itself: server/host/page-paths.ts.) */
function setFrameMode(mode: FrameMode): void {
  if (mode !== 'change' && mode !== 'steady') return;
  idle.still = mode === 'change';
  scheduler.setMode(mode);
}
// `?frames=change` keeps a waiting (warm) page from drawing before its session starts
setFrameMode(pageOptions().frames);

// ---------------------------------------------------------------------------------------------
// start

async function doStart(o: StartOptions): Promise<ReadyInfo> {
  const t0 = performance.now();
  const q = pageOptions();
  const gameId = o.gameId ?? q.game ?? '';
  if (!GAME_ID_RE.test(gameId)) throw new Error(`bad game id: ${JSON.stringify(gameId)}`);
  const { assetBase, storyUrl } = gameUrls(gameId, { assetBase: o.assetBase ?? q.assets, storyUrl: o.storyUrl ?? q.story });
  if (o.fps && o.fps > 0) scheduler.maxFps = Math.min(60, o.fps);
  if (o.frames) setFrameMode(o.frames);
  const tA = performance.now();
  const a = getAudio();
  const audioMs = Math.round(performance.now() - tA);
  if (o.volume !== undefined) a.setVolume(o.volume);
  if (o.monitor || q.monitor) a.setMonitor(true);
  // what a warm page prepared for this game (waited for if still running), or null
  const prepared: Prepared | null = await takePrepared(gameId, assetBase, storyUrl);
  const title = !o.state && !o.skipTitle;

  const e = new Engine({ ...o, gameId, sessionId: o.sessionId ?? q.session ?? undefined }, a);
  e.events.host = emit;
  e.onDirty = () => scheduler.wake();
  e.quality = quality;
  // the title screen's static layer, drawn ahead (only worth keeping when the title shows first)
  const r = new Renderer(canvas, e, title ? prepared?.layers : undefined);
  if (!title) prepared?.layers.dispose();
  engine = e;
  renderer = r;
  input = new InputHandler(e);

  const tSetup = performance.now();
  let c: Content;
  try {
    c = prepared ?? (await loadContent(assetBase, storyUrl));
  } catch (err) {
    const compile = err instanceof StoryCompileError;
    e.fail(compile ? 'story_compile_failed' : 'game_not_found', err instanceof Error ? err.message : String(err));
    throw err;
  }
  const { game, meta, assets, loaded } = c;
  // an image that lands redraws the cached layers (steady: the next frame does anyway)
  assets.art.onArrive = () => scheduler.wake();
  const tFiles = performance.now();
  const timings: Record<string, number> = {
    audio: audioMs,
    setup: Math.round(tSetup - t0),
    files: Math.round(tFiles - tSetup),
    parse: prepared ? 0 : loaded.parseMs,
  };
  const since = (t: number) => Math.round(performance.now() - t);
  const timed = <T>(p: Promise<T>, k: string): Promise<T> =>
    p.then((v) => {
      timings[k] = since(tFiles);
      return v;
    });
  e.setContent(game, meta, assets, loaded.story);
  // scores and sfx specs are small and fetched when first played: no need to wait for them
  void assets.preloadSound();
  for (const s of o.saves ?? []) e.putSlot(s.slot, s.stateJson);
  let resumed = false;
  if (o.state) resumed = e.loadState(o.state);
  if (!resumed && o.skipTitle) e.newGame();
  // Only the first screen's glyphs now: the title screen's (a cold start spent 0.7-1.1 s of its
  // page's thread on the story's ~90 font subsets before the first frame); a start that opens on
  // a line waits for them all. The rest load after ready, while the player looks at the title
  // (text that lands before its glyphs redraws when they arrive: text.ts ensureGlyphs).
  const onTitle = !resumed && !o.skipTitle && !prepared?.fontsReady && q.fonts === 'first';
  const fontsOk = timed(prepared?.fontsReady ? Promise.resolve(true) : preloadFonts(onTitle ? { regular: c.fontText.first, bold: c.fontText.first } : c.fontText), 'fonts');
  // only the first screen's art now; the rest after ready, in idle time (art.ts)
  const firstArt = resumed || o.skipTitle ? e.screenArt() : assets.art.stageKeys(e.titleBackground(), []);
  const [fontsReady] = await Promise.all([fontsOk, timed(assets.art.ensure(firstArt), 'art')]);
  e.fontsReady = fontsReady;
  if (onTitle) setTimeout(() => void preloadFonts(c.fontText), REST_FONTS_AFTER_MS);
  // the title fades in with its art and fonts, not placeholders
  if (!resumed && !o.skipTitle) e.showTitle();
  e.ready = true;
  timings.artDeferred = assets.art.allKeys().length - firstArt.length;
  const info: ReadyInfo = {
    gameId,
    sessionId: e.sessionId,
    title: e.title,
    startMs: Math.round(performance.now() - t0),
    timings,
    storySource: loaded.source,
    prepared: !!prepared,
  };
  console.info(`[yumecast] ready: ${gameId} (${loaded.source} story${prepared ? ', prepared' : ''}) in ${info.startMs} ms${assets.missing.length ? `; missing: ${assets.missing.join(', ')}` : ''}`);
  o.onReady?.(info);
  e.emit('ready', info);
  // the rest of the art, in idle time, in the order the story uses it
  assets.art.warm([...firstArt, ...artOrder(loaded.ink, assets.art)]);
  return info;
}

function start(options: StartOptions = {}): Promise<ReadyInfo> {
  if (startPromise) {
    // Already started (e.g. autostart): apply what can still be applied.
    return startPromise.then((info) => {
      for (const s of options.saves ?? []) engine?.putSlot(s.slot, s.stateJson);
      if (options.state) engine?.loadState(options.state);
      return info;
    });
  }
  startPromise = doStart(options);
  return startPromise;
}

// ---------------------------------------------------------------------------------------------
// the API

function applyInput(raw: unknown): boolean {
  const msg: PlayerMessage | null = parsePlayerMessage(raw);
  if (!msg) return false;
  if (msg.type === 'quality') {
    setQuality(msg.level);
    return true;
  }
  if (!isInputMessage(msg) || !engine || !input) return false;
  input.apply(msg);
  // the input may have changed what a draw shows without marking it (a tick does the rest)
  scheduler.wake();
  return true;
}

function captureStream(fps = 30, options: CaptureOptions = {}): MediaStream {
  if (options.mode) setFrameMode(options.mode);
  if (scheduler.mode === 'change' && fps > 0) scheduler.maxFps = Math.min(60, fps);
  const track = scheduler.capture(fps);
  // Without this WebRTC starts at 480x270 and the text is blurred for ~20 s.
  if (track) track.contentHint = 'detail';
  const tracks: MediaStreamTrack[] = track ? [track] : [];
  for (const t of getAudio().streamDest.stream.getAudioTracks()) tracks.push(t.clone());
  return new MediaStream(tracks);
}

async function screenshot(): Promise<string> {
  if (engine && renderer) scheduler.drawNow();
  return canvas.toDataURL('image/png');
}

function getState(): EngineState {
  const base: EngineState = engine
    ? engineState(engine)
    : { ...blankEngineState(quality), audio: { state: audio?.ctx.state ?? 'none', currentTime: audio?.ctx.currentTime ?? 0, music: null, loop: null, output: audio?.output ?? null } };
  const extra = engine ? {} : { prepared: preparedGames() };
  return { ...base, ...extra, frame: scheduler.frames, quality, drawMs: Math.round(scheduler.drawMs * 100) / 100, videoFrames: scheduler.sent, frameMode: scheduler.mode, capture: scheduler.mode === 'change' ? scheduler.capturing : undefined };
}

function setQuality(level: QualityLevel): void {
  if (level !== 'high' && level !== 'medium' && level !== 'low') return;
  quality = level;
  if (engine) engine.quality = level;
  scheduler.wake();
}

function on(name: EngineEvent, fn: (payload: unknown) => void): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(fn);
  return () => set!.delete(fn);
}

function loadState(json: string): boolean {
  if (!engine || !engine.ready) return false;
  return engine.loadState(json);
}

function snapshot(): string | null {
  return engine?.snapshot() ?? null;
}

function setSaves(slots: SaveSlotInput[]): number {
  if (!engine) return 0;
  return slots.filter((s) => engine!.putSlot(s.slot, s.stateJson)).length;
}

/**
 * A start on the title screen loads the story's other glyphs this long after ready (ms): the
 * player's connection is set up meanwhile and shares this page's CPU; a line shown sooner loads
 * its own glyphs at once (text.ts ensureGlyphs).
 */
const REST_FONTS_AFTER_MS = 1500;

const api: YumecastApi = {
  version: RUNTIME_VERSION,
  start,
  prepare: (gameId, options = {}) => prepareGame(gameId, options, getAudio),
  applyInput,
  captureStream,
  screenshot,
  getState,
  setQuality,
  on,
  loadState,
  snapshot,
  setSaves,
  setVolume: (v: number) => getAudio().setVolume(v),
  refreshFrames: () => scheduler.refresh(),
};

declare global {
  interface Window {
    yumecast: YumecastApi;
  }
}
window.yumecast = api;
window.dispatchEvent(new CustomEvent('yumecast:loaded'));

// development: real mouse and keyboard on the page (the host sends protocol messages instead)
attachDomInput(canvas, applyInput);

// Autostart for a person opening the page (?game=<id>); an automated host calls start() itself.
{
  const q = pageOptions();
  const auto = q.autostart;
  if (q.game && (auto === '1' || (auto !== '0' && !navigator.webdriver))) {
    start().catch((err) => console.error('[yumecast] start failed', err));
  }
}
