/**
 * Keeps the store's play history fresh for a verified user: it is (re)loaded whenever a consumer
 * mounts (the home row, the my-list pages), which also covers "after a play ends" since leaving
 * the play page mounts them again. Simultaneous consumers share one request.
 */
import { useCallback, useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { errorMessage } from '@/lib/api/client';
import { loadPlayHistories, selectPlayHistories, type HistoryLoad, type StoredPlayHistory } from './playHistory';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

let inFlight: Promise<HistoryLoad | null> | null = null;

export interface PlayHistoriesView {
  histories: StoredPlayHistory[];
  status: LoadStatus;
  /** Japanese message of the last failure. */
  error: string | null;
  nextCursor: string | null;
  loadingMore: boolean;
  loadMore: () => void;
}

/** The outcome of the last load, keyed by user so another user's outcome never shows. */
interface Outcome {
  uid: string;
  nextCursor: string | null;
  error: string | null;
}

const FAILED = 'プレイ履歴を読み込めませんでした。しばらくしてからもう一度お試しください。';

export function usePlayHistories(): PlayHistoriesView {
  const dispatch = useAppDispatch();
  const verified = useAppSelector(selectAuthState) === 'verified';
  const uid = useAppSelector((s) => s.user.user?.uid ?? '');
  const histories = useAppSelector(selectPlayHistories);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    if (!verified) return;
    let live = true;
    const p = inFlight ?? dispatch(loadPlayHistories(null));
    inFlight = p;
    p.then((r) => live && setOutcome({ uid, nextCursor: r?.nextCursor ?? null, error: null }))
      .catch((e: unknown) => live && setOutcome({ uid, nextCursor: null, error: errorMessage(e, FAILED) }))
      .finally(() => {
        if (inFlight === p) inFlight = null;
      });
    return () => {
      live = false;
    };
  }, [verified, uid, dispatch]);

  const mine = outcome?.uid === uid ? outcome : null;
  const nextCursor = mine?.nextCursor ?? null;

  const loadMore = useCallback(() => {
    if (!nextCursor || loadingMore) return;
    setLoadingMore(true);
    dispatch(loadPlayHistories(nextCursor))
      .then((r) => setOutcome({ uid, nextCursor: r?.nextCursor ?? null, error: null }))
      .catch((e: unknown) => setOutcome({ uid, nextCursor, error: errorMessage(e, FAILED) }))
      .finally(() => setLoadingMore(false));
  }, [nextCursor, loadingMore, dispatch, uid]);

  if (!verified) return { histories: [], status: 'idle', error: null, nextCursor: null, loadingMore: false, loadMore };
  const status: LoadStatus = !mine ? 'loading' : mine.error ? 'error' : 'ready';
  return { histories, status, error: mine?.error ?? null, nextCursor, loadingMore, loadMore };
}
