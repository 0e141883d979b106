/**
 * The my-list calls (bookmarks, play history; shapes from lib/api-types/schemas/catalog.ts) and
 * the screenshot calls (docs/sessions.md §6; lib/api-types/schemas/sessions.ts), for verified users.
 * Everything goes through the one api client with the bearer token, the screenshot images too (as
 * blobs: the full PNG for the viewer, downloads and shares; the small WebP thumbnail for tiles). Answers are checked and mapped to camelCase here, so pages never see the wire.
 * Failures are ApiClientError (typed code + Japanese message); a malformed answer is
 * `bad_response`.
 */
import type { BookmarkListWire, BookmarkStateWire, BookmarkWire, PlayHistoryListWire, PlayHistoryWire, TitleWire } from '@/lib/api-types/schemas/catalog';
import type { ScreenshotDetailAnswer, ScreenshotListAnswer, ScreenshotWire } from '@/lib/api-types/schemas/sessions';
import { toGameSummary, type GameSummary } from '@/lib/types/game';
import { apiBlob, apiRequest, ApiClientError, clientError, messageFor } from './client';

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

const enc = encodeURIComponent;

function badResponse(): ApiClientError {
  return clientError('bad_response');
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
  const r = await apiRequest<ScreenshotListAnswer>(`/v1/screenshots${query(q)}`);
  return page(r.screenshots, r.next_cursor, toScreenshot);
}

export async function getScreenshot(id: string): Promise<Screenshot> {
  const r = await apiRequest<ScreenshotDetailAnswer>(`/v1/screenshots/${enc(id)}`);
  return toScreenshot(r.screenshot);
}

export async function deleteScreenshot(id: string): Promise<void> {
  await apiRequest<object>(`/v1/screenshots/${enc(id)}`, { method: 'DELETE' });
}

/** Which picture of a screenshot: the full-resolution PNG, or the gallery's WebP thumbnail. */
export type ScreenshotPicture = 'image' | 'thumbnail';

/**
 * A picture of one of the user's screenshots. It needs the bearer header, so it cannot be an
 * <img src>: callers show it through URL.createObjectURL (and revoke it when done).
 */
async function fetchScreenshotPicture(id: string, picture: ScreenshotPicture, signal?: AbortSignal): Promise<Blob> {
  try {
    return await apiBlob(`/v1/screenshots/${enc(id)}/${picture}`, { signal, subject: 'image' });
  } catch (e) {
    // Any 404 (another user's screenshot, a deleted one) reads as "not found".
    if (e instanceof ApiClientError && e.httpStatus === 404) throw new ApiClientError('screenshot_not_found', 404, messageFor('screenshot_not_found'));
    throw e;
  }
}

/** The full-resolution PNG (the viewer, downloads, shares). */
export function fetchScreenshotImage(id: string, signal?: AbortSignal): Promise<Blob> {
  return fetchScreenshotPicture(id, 'image', signal);
}

/** The gallery tile's WebP thumbnail (≤ 320×180, a few kB; docs/mylist.md "Thumbnails"). */
export function fetchScreenshotThumbnail(id: string, signal?: AbortSignal): Promise<Blob> {
  return fetchScreenshotPicture(id, 'thumbnail', signal);
}
