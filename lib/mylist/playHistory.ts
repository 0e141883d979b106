/**
 * The play history in the store (USER.UPDATE_PLAY_HISTORIES): loaded from the api for a
 * verified user, a page at a time.
 */
import { listPlayHistory, type PlayHistoryItem } from '@/lib/api/mylist';
import type { PlayHistory } from '@/lib/types/user';
import { authStateOf } from '@/lib/types/user';
import type { AppDispatch, RootState } from '@/store';
import { updatePlayHistories } from '@/store/slices/user';

/** The store's entry (kept as a name of its own for the my-list components). */
export type StoredPlayHistory = PlayHistory;

/** Lines loaded per request (the history page's "もっと見る" loads the next ones). */
export const HISTORY_PAGE_SIZE = 20;

export function toStoredPlayHistory(i: PlayHistoryItem): StoredPlayHistory {
  return { gameId: i.gameId, title: i.game.title, lastPlayedAt: i.lastPlayedAt, totalSeconds: i.totalSeconds, game: i.game, playCount: i.playCount };
}

export const selectPlayHistories = (s: RootState): StoredPlayHistory[] => s.user.playHistories;

export interface HistoryLoad {
  /** Cursor of the next page, null on the last one. */
  nextCursor: string | null;
}

type Thunk<R> = (dispatch: AppDispatch, getState: () => RootState) => Promise<R>;

/**
 * Loads a page of the verified user's history into the store: the first page replaces what the
 * store holds, a later page (cursor) is appended. Nothing happens for a visitor, and an answer
 * that arrives after the user changed is dropped.
 */
export function loadPlayHistories(cursor: string | null = null): Thunk<HistoryLoad | null> {
  return async (dispatch, getState) => {
    const user = getState().user.user;
    if (authStateOf(user) !== 'verified' || !user) return null;
    const page = await listPlayHistory({ cursor, limit: HISTORY_PAGE_SIZE });
    if (getState().user.user?.uid !== user.uid) return null;
    const lines = page.items.map(toStoredPlayHistory);
    const kept = cursor ? selectPlayHistories(getState()).filter((h) => !lines.some((l) => l.gameId === h.gameId)) : [];
    dispatch(updatePlayHistories([...kept, ...lines]));
    return { nextCursor: page.nextCursor };
  };
}
