/**
 * One title's bookmark state for the signed-in user: read once (GET), toggled optimistically
 * (PUT / DELETE) and rolled back with a Japanese error toast when the server refuses. Visitors
 * (anonymous or none) never call the api: bookmarks are for verified users only, so the api
 * client comes in its own chunk when a verified user's state is first read (issue 12: a title
 * page's first load carries no api client for the visitors and crawlers that open it).
 */
import { useCallback, useEffect, useState } from 'react';
import { track } from '@/lib/analytics';
import { lazyFailureMessage } from '@/lib/api/lazy';
import { pushToast } from '@/store/slices/toastThunks';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { displayModal } from '@/store/slices/modal';

export interface BookmarkControl {
  /** null while the state is not known yet (loading, or before the first auth report). */
  bookmarked: boolean | null;
  /** A request is in flight (the button ignores clicks meanwhile). */
  busy: boolean;
  toggle: () => void;
}

/** The my-list api and the client's wording, in one chunk loaded on first use. */
const loadApi = () => Promise.all([import('@/lib/api/mylist'), import('@/lib/api/client')]).then(([mylist, client]) => ({ ...mylist, errorMessage: client.errorMessage }));

/** The toast's text for a failure (the fallback when even the api's chunk could not load). */
const failureMessage = lazyFailureMessage(loadApi, (api, e, fallback) => api.errorMessage(e, fallback));

/** State is keyed by title and user, so answers about a former title (client navigation) never land. */
interface Known {
  key: string;
  bookmarked: boolean;
  busy: boolean;
}

export function useBookmark(gameId: string): BookmarkControl {
  const dispatch = useAppDispatch();
  const authState = useAppSelector(selectAuthState);
  const uid = useAppSelector((s) => s.user.user?.uid ?? '');
  const verified = authState === 'verified';
  const key = `${uid}:${gameId}`;
  const [known, setKnown] = useState<Known | null>(null);
  const mine = known?.key === key ? known : null;

  useEffect(() => {
    if (!verified) return;
    let live = true;
    loadApi()
      .then((api) => api.getBookmarked(gameId))
      .then((b) => live && setKnown({ key, bookmarked: b, busy: false }))
      // A failed read leaves the button usable as "not bookmarked": PUT is idempotent.
      .catch(() => live && setKnown({ key, bookmarked: false, busy: false }));
    return () => {
      live = false;
    };
  }, [gameId, verified, key]);

  const toggle = useCallback(() => {
    if (!verified) {
      dispatch(displayModal({ node: 'login' }));
      return;
    }
    if (!mine || mine.busy) return;
    const next = !mine.bookmarked;
    const update = (patch: Partial<Known>) => setKnown((k) => (k && k.key === key ? { ...k, ...patch } : k));
    update({ bookmarked: next, busy: true });
    loadApi()
      .then((api) => (next ? api.addBookmark(gameId) : api.removeBookmark(gameId)))
      .then((state) => {
        update({ bookmarked: state, busy: false });
        track('bookmark', { gameId, action: next ? 'add' : 'remove' });
      })
      .catch((e: unknown) => {
        update({ bookmarked: !next, busy: false });
        const fallback = next ? 'ブックマークできませんでした。もう一度お試しください。' : 'ブックマークを解除できませんでした。もう一度お試しください。';
        void failureMessage(e, fallback).then((message) => dispatch(pushToast('error', { message })));
      });
  }, [verified, mine, key, gameId, dispatch]);

  // Until the first auth report the button waits; visitors see "not bookmarked".
  const bookmarked = verified ? (mine?.bookmarked ?? null) : authState === 'undefined' ? null : false;
  return { bookmarked, busy: mine?.busy ?? false, toggle };
}
