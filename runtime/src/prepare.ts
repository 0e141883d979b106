/**
 * Titles prepared ahead in a warm page (`yumecast.prepare`, issue 11 "warm runtimes prepared for
 * the title"): what start() would do for a title that does not depend on the session, done while
 * the page waits: its files fetched and the story parsed (content.ts), its scores and sfx specs
 * fetched, the fonts of its text, the title screen's background rasterised, the title screen's
 * static layer (art, title, glow) drawn once with the button and loading glyphs (so the first
 * frame's draw finds Chromium's glyph caches warm). The title music needs nothing ahead: its loop
 * is rendered at build time (runtime/build-loops.ts) and fetched at start.
 *
 * start() takes the preparation for its game (same asset and story URLs) and drops every other
 * one (one game per page: their rasters' and layers' pixels are freed at once, their stories at
 * the next GC). A preparation holds no
 * session state: the story is not run (start() resets it), and a resumed save or skipTitle
 * rasterises its own first screen as without one.
 */
import type { AudioEngine } from './audio/engine';
import { GAME_ID_RE, gameUrls, loadContent, preloadFonts, type Content } from './content';
import { Layers } from './draw/common';
import { drawLoading, drawTitle } from './draw/screens';
import { Engine } from './engine';
import { H, W, type PrepareInfo, type PrepareOptions } from './types';
import { platform } from './platform';

export interface Prepared extends Content {
  fontsReady: boolean;
  /** The title screen's static layer, drawn ahead (the renderer takes it: render.ts). */
  layers: Layers;
  /** Frees it at once (the rasters' and the layer's pixels): for one no start uses. */
  dispose(): void;
}

/** What run() reads of a preparation: its URLs (absolute) and whether a start dropped it. */
interface EntryBase {
  assetBase: string;
  storyUrl: string;
  cancelled: boolean;
  /** The preparation finished and holds a title (getState().prepared reads it synchronously). */
  ready: boolean;
}

interface Entry extends EntryBase {
  done: Promise<Prepared | null>;
  info: Promise<PrepareInfo>;
}

/** Preparations by game id (in progress or ready). */
const entries = new Map<string, Entry>();
/** Set once start() took over: prepare() is a no-op from then on. */
let closed = false;

const abs = (u: string) => (u ? new URL(u, platform().baseHref()).href : '');
const same = (e: Entry, assetBase: string, storyUrl: string) => e.assetBase === abs(assetBase) && e.storyUrl === abs(storyUrl);

/**
 * Draws the title screen once into a throwaway canvas: the static layer stays in `layers`, and
 * the glyphs of the buttons and the loading screen are rasterised into Chromium's caches.
 */
function rehearseTitle(e: Engine, layers: Layers): void {
  e.screen = 'title';
  e.menus.focusId = 'title:new';
  const scratch = platform().createCanvas();
  scratch.width = W;
  scratch.height = H;
  const g = scratch.getContext('2d', { alpha: false })!;
  const now = performance.now();
  drawLoading(g, now);
  drawTitle(g, e, layers, now);
  // Chromium records canvas draws and rasterises them when read: read a pixel to do it now
  g.getImageData(0, 0, 1, 1);
  scratch.width = 1;
  scratch.height = 1;
}

async function run(gameId: string, entry: EntryBase, audio: AudioEngine, timings: Record<string, number>): Promise<Prepared | null> {
  const step = async <T>(k: string, p: () => Promise<T> | T): Promise<T> => {
    if (entry.cancelled) throw new Error('dropped by a start');
    const t = performance.now();
    const v = await p();
    timings[k] = Math.round(performance.now() - t);
    return v;
  };
  const c = await step('files', () => loadContent(entry.assetBase, entry.storyUrl));
  timings.parse = c.loaded.parseMs;
  // the scores and sfx specs (small JSON) that start() would fetch: cached in the Assets it takes
  await step('sound', () => c.assets.preloadSound());
  const fontsReady = await step('fonts', () => preloadFonts(c.fontText));
  // a throwaway engine (no session, nothing played) to pick and draw the title screen
  const e = new Engine({ gameId }, audio);
  e.setContent(c.game, c.meta, c.assets, c.loaded.story);
  await step('art', () => c.assets.art.ensure(c.assets.art.stageKeys(e.titleBackground(), [])));
  // (the layers follow font loads themselves: fonts that land later redraw them)
  const layers = new Layers(() => c.assets.art.epoch);
  try {
    await step('draw', () => rehearseTitle(e, layers));
  } catch (err) {
    layers.dispose();
    throw err;
  }
  const dispose = () => {
    layers.dispose();
    c.assets.art.dispose();
  };
  return { ...c, fontsReady, layers, dispose };
}

/** yumecast.prepare: readies a title (see the file header). Never rejects. */
export function prepareGame(gameId: string, o: PrepareOptions, audio: () => AudioEngine): Promise<PrepareInfo> {
  const fail = (error: string) => Promise.resolve<PrepareInfo>({ gameId, ok: false, error, ms: 0, timings: {} });
  if (closed) return fail('the page has started a game');
  if (!GAME_ID_RE.test(gameId)) return fail(`bad game id: ${JSON.stringify(gameId)}`);
  const { assetBase, storyUrl } = gameUrls(gameId, o);
  const existing = entries.get(gameId);
  if (existing && same(existing, assetBase, storyUrl)) return existing.info;
  if (existing) drop(existing);
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const a = audio();
  const base: EntryBase = { assetBase: abs(assetBase), storyUrl: abs(storyUrl), cancelled: false, ready: false };
  const outcome = run(gameId, base, a, timings).then(
    (p) => ({ p, error: null }),
    (e: unknown) => ({ p: null, error: e instanceof Error ? e.message : String(e) }),
  );
  const entry: Entry = Object.assign(base, {
    done: outcome.then((o) => {
      base.ready = o.p !== null;
      return o.p;
    }),
    info: outcome.then((o) => ({ gameId, ok: o.p !== null, ...(o.error ? { error: o.error } : {}), ms: Math.round(performance.now() - t0), timings })),
  });
  entries.set(gameId, entry);
  return entry.info;
}

/** A preparation no start will use: its rasters and layer are freed at once (~8 MB a title). */
function drop(e: Entry): void {
  e.cancelled = true;
  void e.done.then((p) => p?.dispose());
}

/**
 * For start(): the preparation of this game with these URLs (waiting for it if it is still
 * running), or null. Every other preparation is dropped, and prepare() does nothing from now on.
 */
export async function takePrepared(gameId: string, assetBase: string, storyUrl: string): Promise<Prepared | null> {
  closed = true;
  const mine = entries.get(gameId);
  for (const e of entries.values()) if (e !== mine) drop(e);
  entries.clear();
  if (!mine) return null;
  if (!same(mine, assetBase, storyUrl)) {
    drop(mine);
    return null;
  }
  return mine.done;
}

/** The games whose preparation is ready (getState().prepared). */
export function preparedGames(): string[] {
  return [...entries].filter(([, e]) => e.ready).map(([id]) => id);
}
