/**
 * The my-list calls (bookmarks, play history; lib/api-types/catalog.ts) and the screenshot calls
 * (docs/sessions.md §6), for verified users. Everything goes through the one api client with the
 * bearer token; answers are checked and mapped to camelCase here, so pages never see the wire.
 * Failures are ApiClientError (typed code + Japanese message); a malformed answer is
 * `bad_response`.
 */
import type { BookmarkListWire, BookmarkStateWire, BookmarkWire, PlayHistoryListWire, PlayHistoryWire, TitleWire } from '@/lib/api-types/catalog';
import type { ScreenshotDetailWire, ScreenshotListWire, ScreenshotWire } from '@/lib/api-types/sessions';
import { authorizedFetch, CANNOT_GET_USER_TOKEN, NetworkTimeoutError } from '@/lib/auth/network';
import { config } from '@/lib/config';
import { toGameSummary, type GameSummary } from '@/lib/types/game';
import { apiRequest, ApiClientError } from './client';

/** One page of a cursor-paginated list; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageQuery {
  cursor?: string | null;
  limit?: number;
}

export interface Bookmark {
  gameId: string;
  /** Unix milliseconds. */
  createdAt: number;
  game: GameSummary;
}

/** One line of the play history as the my-list pages show it. */
export interface PlayHistoryItem {
  gameId: string;
  game: GameSummary;
  /** Unix milliseconds of the end of the last session. */
  lastPlayedAt: number;
  totalSeconds: number;
  playCount: number;
}

export interface Screenshot {
  id: string;
  gameId: string;
  sessionId: string;
  width: number;
  height: number;
  bytes: number;
  /** Unix milliseconds. */
  createdAt: number;
}

const BAD_RESPONSE = 'サーバーから予期しない応答がありました。もう一度お試しください。';
const enc = encodeURIComponent;

function badResponse(): ApiClientError {
  return new ApiClientError('bad_response', 0, BAD_RESPONSE);
}

function check<T>(ok: boolean, value: () => T): T {
  if (!ok) throw badResponse();
  return value();
}

function time(iso: unknown): number {
  const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (!Number.isFinite(t)) throw badResponse();
  return t;
}

const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isTitle = (t: unknown): t is TitleWire => !!t && typeof t === 'object' && isStr((t as TitleWire).id) && typeof (t as TitleWire).title === 'string';
const isCursor = (c: unknown): c is string | null => c === null || typeof c === 'string';

function query({ cursor, limit }: PageQuery): string {
  const q = new URLSearchParams();
  if (cursor) q.set('cursor', cursor);
  if (limit !== undefined) q.set('limit', String(limit));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function page<W, T>(list: unknown, next: unknown, map: (w: W) => T): Page<T> {
  return check(Array.isArray(list) && isCursor(next), () => ({ items: (list as W[]).map(map), nextCursor: next as string | null }));
}

function toBookmark(w: BookmarkWire): Bookmark {
  return check(isStr(w?.game_id) && isTitle(w.title), () => ({ gameId: w.game_id, createdAt: time(w.created_at), game: toGameSummary(w.title) }));
}

function toHistory(w: PlayHistoryWire): PlayHistoryItem {
  return check(isStr(w?.game_id) && isTitle(w.title) && isCount(w.total_seconds) && isCount(w.play_count), () => ({
    gameId: w.game_id,
    game: toGameSummary(w.title),
    lastPlayedAt: time(w.last_played_at),
    totalSeconds: w.total_seconds,
    playCount: w.play_count,
  }));
}

function toScreenshot(w: ScreenshotWire): Screenshot {
  return check(isStr(w?.id) && isStr(w.game_id) && isCount(w.width) && isCount(w.height), () => ({
    id: w.id,
    gameId: w.game_id,
    sessionId: w.session_id,
    width: w.width,
    height: w.height,
    bytes: w.bytes,
    createdAt: time(w.created_at),
  }));
}

function bookmarkState(r: BookmarkStateWire): boolean {
  return check(typeof r.bookmarked === 'boolean', () => r.bookmarked);
}

export async function listBookmarks(q: PageQuery = {}): Promise<Page<Bookmark>> {
  const r = await apiRequest<BookmarkListWire>(`/v1/mylist/bookmarks${query(q)}`);
  return page(r.bookmarks, r.next_cursor, toBookmark);
}

export async function getBookmarked(gameId: string): Promise<boolean> {
  return bookmarkState(await apiRequest<BookmarkStateWire>(`/v1/mylist/bookmarks/${enc(gameId)}`));
}

export async function addBookmark(gameId: string): Promise<boolean> {
  return bookmarkState(await apiRequest<BookmarkStateWire>(`/v1/mylist/bookmarks/${enc(gameId)}`, { method: 'PUT' }));
}

/** Removing a bookmark that is already gone (404 bookmark_not_found) is the wanted end state. */
export async function removeBookmark(gameId: string): Promise<boolean> {
  try {
    return bookmarkState(await apiRequest<BookmarkStateWire>(`/v1/mylist/bookmarks/${enc(gameId)}`, { method: 'DELETE' }));
  } catch (e) {
    if (e instanceof ApiClientError && e.code === 'bookmark_not_found') return false;
    throw e;
  }
}

export async function listPlayHistory(q: PageQuery = {}): Promise<Page<PlayHistoryItem>> {
  const r = await apiRequest<PlayHistoryListWire>(`/v1/mylist/history${query(q)}`);
  return page(r.histories, r.next_cursor, toHistory);
}

export async function listScreenshots(q: PageQuery = {}): Promise<Page<Screenshot>> {
  const r = await apiRequest<ScreenshotListWire>(`/v1/screenshots${query(q)}`);
  return page(r.screenshots, r.next_cursor, toScreenshot);
}

export async function getScreenshot(id: string): Promise<Screenshot> {
  const r = await apiRequest<ScreenshotDetailWire>(`/v1/screenshots/${enc(id)}`);
  return toScreenshot(r.screenshot);
}

export async function deleteScreenshot(id: string): Promise<void> {
  await apiRequest<object>(`/v1/screenshots/${enc(id)}`, { method: 'DELETE' });
}

/**
 * The PNG of one of the user's screenshots. The image needs the bearer header, so it cannot be
 * an <img src>: callers show it through URL.createObjectURL (and revoke it when done).
 */
export async function fetchScreenshotImage(id: string, signal?: AbortSignal): Promise<Blob> {
  let res: Response;
  try {
    res = await authorizedFetch(`${config.apiUrl}/v1/screenshots/${enc(id)}/image`, { signal });
  } catch (e) {
    if (e instanceof Error && e.message === CANNOT_GET_USER_TOKEN) {
      throw new ApiClientError('no_token', 0, 'ログイン情報を確認できませんでした。ページを再読み込みしてください。');
    }
    if (e instanceof NetworkTimeoutError) throw new ApiClientError('timeout', 0, '画像の読み込みに時間がかかっています。もう一度お試しください。');
    throw new ApiClientError('network', 0, '画像を読み込めませんでした。ネットワーク接続を確認してください。');
  }
  if (res.status === 404) throw new ApiClientError('screenshot_not_found', 404, 'スクリーンショットが見つかりません。');
  if (!res.ok) throw new ApiClientError('bad_response', res.status, '画像を読み込めませんでした。しばらくしてからもう一度お試しください。');
  return res.blob();
}
