/**
 * What a warm runtime loads before any session arrives, so starting a game costs ~0.25 s rather
 * than a second: the Japanese font subsets every title needs (the union of the precompiled
 * stories' character sets plus the UI's kana and Latin), and, with `files` (HOST_PREWARM_FILES=1),
 * each title's files (game.json, meta.json, the precompiled story, art, music) into the browser's
 * HTTP cache. Computed once per agent from the runtime build and the games folders. The engine
 * fetches with the default cache mode and the page server marks these files cacheable, so a
 * session's start would read them from that cache; but the page server is on loopback, and
 * loading every title's files cost each warm-up ~3 s of CPU (half of it in the shared browser and
 * network processes, beside the sessions being played) and each session ~50 MB of decoded images,
 * so by default only the fonts are loaded (docs/host.md "Prewarm"). The engine itself rasterises
 * only the first screen's art at start (runtime/src/art.ts).
 * Then a few titles (`prepare`: at most PREPARE_MAX, the ones named first) are prepared in the page
 * (yumecast.prepare: story parsed, title screen rasterised and drawn; music needs nothing ahead,
 * its loops are rendered at build time), so a start of one of them only shows its title (issue 11; docs/host.md "Prewarm").
 * Only web-engine titles: a title another runtime plays (Ren'Py's "The Question", meta.json
 * "runtime", lib/api-types/titleRuntime.ts) is never loaded or prepared in a web runtime page;
 * the runtime's build decides which those are (runtime/game-dir.ts isWebEngineGameDir, the
 * reader runtime/build.ts uses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isWebEngineGameDir } from '../../runtime/game-dir';

export interface PrewarmPlan {
  /** Characters whose font subsets to load (both weights). */
  charset: string;
  /** URLs to fetch into the HTTP cache (JSON). */
  fetch: string[];
  /** Image URLs to load (and decode) into the cache. */
  images: string[];
  /**
   * Titles to prepare after the loads (yumecast.prepare), in this order, with the URLs the
   * session's start will use (server/host/sessions.ts).
   */
  prepare?: PrepareTarget[];
}

export interface PrepareTarget {
  gameId: string;
  assetBase: string;
  storyUrl: string;
}

export interface PrewarmPlanOptions {
  /** Game ids to prepare, most started first (default: the first titles of the plan). */
  prepare?: string[];
  /** At most this many prepared titles (default PREPARE_MAX; 0 = none). */
  prepareMax?: number;
  /** Every title's files into the HTTP cache and its images decoded too (HOST_PREWARM_FILES=1; default: fonts only). */
  files?: boolean;
}

/** Kana, common punctuation and ASCII: the engine's UI text is made of these (and a few kanji). */
const UI_CHARS = (() => {
  let s = '';
  for (let c = 0x3000; c <= 0x30ff; c++) s += String.fromCharCode(c);
  for (let c = 0x20; c < 0x7f; c++) s += String.fromCharCode(c);
  return `${s}─…—▶◀●○★☆♪→←↑↓！？（）「」『』、。・～ー戻閉読込上書選択肢終了設定音量速度文字画面全体表示自動既読未読`;
})();

/**
 * The URLs a session's runtime loads its game from (the page server's /games/<id>/ and the
 * precompiled story): one function for the session's start (sessions.ts) and the warm runtimes'
 * preparations (prewarm.ts), which a start only uses when its URLs are the same.
 */
export function gameUrls(gameId: string): { assetBase: string; storyUrl: string } {
  return { assetBase: `/games/${gameId}/`, storyUrl: `/runtime/games/${gameId}.json` };
}

const MAX_GAMES = 20;
/**
 * Titles a warm runtime prepares. Each costs the warm page ~10-15 MB of renderer memory (the title
 * background raster and the title layer, 3.7 MB each, glyph caches, the parsed story) until a
 * session starts, when the others' rasters and layers are freed (docs/host.md "Prewarm").
 */
export const PREPARE_MAX = 3;

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function paths(v: unknown): string[] {
  if (!v || typeof v !== 'object') return [];
  return Object.values(v as Record<string, unknown>).filter((x): x is string => typeof x === 'string');
}

export function buildPrewarmPlan(runtimeDir: string, gamesDirs: string[], options: PrewarmPlanOptions = {}): PrewarmPlan {
  const chars = new Set<string>(Array.from(UI_CHARS));
  const fetchUrls: string[] = [];
  const images: string[] = [];
  const seen = new Set<string>();
  const builtDir = path.join(runtimeDir, 'games');
  const built = fs.existsSync(builtDir) ? fs.readdirSync(builtDir).filter((f) => f.endsWith('.json')).sort() : [];
  for (const file of built.slice(0, MAX_GAMES)) {
    const id = file.slice(0, -5);
    const dir = gamesDirs.map((d) => path.join(d, id)).find((d) => fs.existsSync(path.join(d, 'game.json')) || fs.existsSync(path.join(d, 'meta.json')));
    // a title another runtime plays: not its charset, files or preparation (even with a stale build)
    if (dir && !isWebEngineGameDir(dir)) continue;
    const story = readJson(path.join(builtDir, file)) as { charset?: unknown } | null;
    if (typeof story?.charset === 'string') for (const ch of Array.from(story.charset)) chars.add(ch);
    if (!dir || !fs.existsSync(path.join(dir, 'game.json')) || seen.has(id)) continue;
    seen.add(id);
    fetchUrls.push(`/runtime/games/${id}.json`, `/games/${id}/game.json`, `/games/${id}/meta.json`);
    const game = readJson(path.join(dir, 'game.json')) as Record<string, unknown> | null;
    const meta = readJson(path.join(dir, 'meta.json')) as Record<string, unknown> | null;
    for (const t of [meta?.title, meta?.reading, meta?.brand, game?.title]) if (typeof t === 'string') for (const ch of Array.from(t)) chars.add(ch);
    if (!game) continue;
    const rel = (p: string) => `/games/${id}/${p.replace(/^\.?\//, '')}`;
    for (const p of paths(game.backgrounds)) images.push(rel(p));
    for (const c of Object.values((game.characters ?? {}) as Record<string, { name?: unknown; sprites?: unknown }>)) {
      if (typeof c?.name === 'string') for (const ch of Array.from(c.name)) chars.add(ch);
      for (const p of paths(c?.sprites)) images.push(rel(p));
    }
    for (const e of paths(game.endings)) for (const ch of Array.from(e)) chars.add(ch);
    for (const p of [...paths(game.music), ...paths(game.sfx)]) fetchUrls.push(rel(p));
  }
  chars.delete(' ');
  const max = Math.max(0, options.prepareMax ?? PREPARE_MAX);
  const order = options.prepare ? options.prepare.filter((id) => seen.has(id)) : [...seen];
  // as sessions.ts starts a game: a start with other URLs would not use the preparation
  const prepare = [...new Set(order)].slice(0, max).map((gameId) => ({ gameId, ...gameUrls(gameId) }));
  const files = options.files ?? false;
  return { charset: [...chars].join(''), fetch: files ? fetchUrls : [], images: files ? images : [], prepare };
}
