/**
 * A cursor-paginated list of the verified user's items (bookmarks, screenshots): the first page
 * on mount, "もっと見る" for the next, and local removal once the server has removed an item.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Page } from '@/lib/api/mylist';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { errorMessage } from '@/lib/api/client';
import type { LoadStatus } from './usePlayHistories';

export interface PagedList<T> {
  items: T[];
  status: LoadStatus;
  error: string | null;
  nextCursor: string | null;
  loadingMore: boolean;
  loadMore: () => void;
  /** Drops an item from what is shown (after the server removed it). */
  drop: (pick: (item: T) => boolean) => void;
  /** Loads the first page again (after an error). */
  retry: () => void;
}

interface Loaded<T> {
  key: string;
  items: T[];
  nextCursor: string | null;
  error: string | null;
}

export interface PagedSource<T> {
  load: (cursor: string | null) => Promise<Page<T>>;
  idOf: (item: T) => string;
  /** The Japanese message shown when the api gives none. */
  failed: string;
}

/** `source` must be stable (a module constant). */
export function usePagedList<T>(source: PagedSource<T>): PagedList<T> {
  const { load, idOf, failed } = source;
  const verified = useAppSelector(selectAuthState) === 'verified';
  const uid = useAppSelector((s) => s.user.user?.uid ?? '');
  const [attempt, setAttempt] = useState(0);
  // Keyed by user and attempt: what another user (or an earlier attempt) loaded never shows.
  const key = `${uid}#${attempt}`;
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    if (!verified) return;
    let live = true;
    load(null)
      .then((p) => live && setLoaded({ key, items: p.items, nextCursor: p.nextCursor, error: null }))
      .catch((e: unknown) => live && setLoaded({ key, items: [], nextCursor: null, error: errorMessage(e, failed) }));
    return () => {
      live = false;
    };
  }, [verified, key, load, failed]);

  const mine = loaded?.key === key ? loaded : null;
  const nextCursor = mine?.nextCursor ?? null;

  const loadMore = useCallback(() => {
    if (!nextCursor || loadingMore) return;
    setLoadingMore(true);
    load(nextCursor)
      .then((p) =>
        setLoaded((l) => {
          if (!l || l.key !== key) return l;
          // A page boundary can move while items are removed: never show one item twice.
          const seen = new Set(l.items.map(idOf));
          const fresh = p.items.filter((i) => !seen.has(idOf(i)));
          return { ...l, items: [...l.items, ...fresh], nextCursor: p.nextCursor, error: null };
        }),
      )
      .catch((e: unknown) => setLoaded((l) => (l && l.key === key ? { ...l, error: errorMessage(e, failed) } : l)))
      .finally(() => setLoadingMore(false));
  }, [nextCursor, loadingMore, load, idOf, key, failed]);

  const drop = useCallback((pick: (item: T) => boolean) => setLoaded((l) => (l ? { ...l, items: l.items.filter((i) => !pick(i)) } : l)), []);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);

  const status: LoadStatus = !verified ? 'idle' : !mine ? 'loading' : mine.error && mine.items.length === 0 ? 'error' : 'ready';
  return { items: mine?.items ?? [], status, error: mine?.error ?? null, nextCursor, loadingMore, loadMore, drop, retry };
}
