/**
 * A title's content, loaded for play: game.json and meta.json, the story fetched and parsed, the
 * art store (art.ts) and the text whose glyphs its screens need, plus the font preload. Shared by
 * start() (main.ts) and prepare() (prepare.ts), so a prepared title is exactly what start() would
 * have loaded itself.
 */
import { Assets, loadGameFiles } from './assets';
import { loadStory, type LoadedStory } from './story';
import { font } from './text';
import type { GameData, GameMeta } from './types';
import { platform } from './platform';

/** The engine's own UI text (its glyphs are preloaded with the story's). */
export const UI_TEXT =
  'はじめからつづきからメニューセーブロードバックログオートスキップタイトルに戻るゲームに戻る閉じるはいいいえ' +
  'スロットに上書きしますか？セーブしました未読の文章でスキップを止めましたロードしましたセーブデータを読み込めませんでした' +
  'クリックでタイトルに戻るエンディングおわりホイール・↑↓でスクロール　クリック・Escで閉じる（選択肢）ゲームを読み込めませんでした' +
  'NOWLOADINGENDAUTOSKIPONBACKLOGSAVENODATA▶—…©No.0123456789/:';

/** The title screen's own UI text (draw/screens.ts drawTitle, ui.ts's title buttons): a subset of UI_TEXT. */
export const TITLE_UI_TEXT = 'はじめからつづきからエンディング©/0123456789';

export interface Content {
  game: GameData;
  meta: GameMeta;
  assets: Assets;
  loaded: LoadedStory;
  /**
   * Text whose glyphs to preload: `regular` (400: the story and the UI), `bold` (700: names,
   * titles, UI), and `first`: the title screen's (its buttons and the title's names, both weights),
   * all a start that opens on the title screen waits for (main.ts).
   */
  fontText: FontText;
}

export interface FontText {
  regular: string;
  bold: string;
  first: string;
}

export function trailingSlash(u: string): string {
  return u.endsWith('/') ? u : `${u}/`;
}

/** A game id start() and prepare() accept. */
export const GAME_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * A title's asset base and story URL, from what was given (start's or prepare's options, or the
 * page's query) or the defaults: the two must agree, or a start would not use a preparation.
 */
export function gameUrls(gameId: string, given: { assetBase?: string | null; storyUrl?: string | null }): { assetBase: string; storyUrl: string } {
  return { assetBase: trailingSlash(given.assetBase ?? `/games/${gameId}/`), storyUrl: given.storyUrl ?? `./games/${gameId}.json` };
}

/** Fetches and parses a title's files and story (rejects as loadGameFiles / loadStory do). */
export async function loadContent(assetBase: string, storyUrl: string): Promise<Content> {
  const [{ game, meta }, loaded] = await Promise.all([loadGameFiles(assetBase), loadStory(storyUrl, assetBase)]);
  const assets = new Assets(assetBase, game);
  const names = Object.values(game.characters)
    .map((c) => c?.name ?? '')
    .join('');
  const titleText = `${meta.title ?? ''}${meta.reading ?? ''}${meta.brand ?? ''}${game.title ?? ''}`;
  const endings = Object.values(game.endings).join('');
  const bold = UI_TEXT + names + titleText + endings;
  return { game, meta, assets, loaded, fontText: { regular: loaded.charset + bold, bold, first: TITLE_UI_TEXT + titleText } };
}

/** Loads the Noto Sans JP subsets for the text (both weights); true when the UI's glyphs are there. */
export async function preloadFonts(text: Pick<FontText, 'regular' | 'bold'>, timeoutMs = 5000): Promise<boolean> {
  const fonts = platform().fonts();
  if (!fonts) return false;
  const jobs = Promise.all([fonts.load(font(30, 400), text.regular || 'あ'), fonts.load(font(30, 700), text.bold || 'あ')]);
  await Promise.race([jobs.catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs))]);
  return fonts.check(font(30, 400), 'はじめからつづきから') && fonts.check(font(30, 700), 'はじめから');
}
