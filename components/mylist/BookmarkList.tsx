import { Link } from '@/components/ui/Link';
import { useState } from 'react';
import { pushToast } from '@/store/slices/toastThunks';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { track } from '@/lib/analytics';
import { listBookmarks, removeBookmark, type Bookmark } from '@/lib/api/mylist';
import { formatDate } from '@/lib/mylist/format';
import { errorMessage } from '@/lib/api/client';
import { usePagedList, type PagedSource } from '@/lib/mylist/usePagedList';
import { useAppDispatch } from '@/store/hooks';
import { Grid } from '@/components/catalog/layout';
import { ListStatus, MoreFooter } from './ListStates';
import { MyListCard } from './MyListCard';

export const BOOKMARK_PAGE_SIZE = 20;

const source: PagedSource<Bookmark> = {
  load: (cursor) => listBookmarks({ cursor, limit: BOOKMARK_PAGE_SIZE }),
  idOf: (b) => b.gameId,
  failed: 'ブックマークを読み込めませんでした。しばらくしてからもう一度お試しください。',
};

export function BookmarkEmpty() {
  return (
    <EmptyState title="まだブックマークはありません">
      <p>
        気になるタイトルは作品ページからブックマークできます。<Link href="/search">タイトルをさがす</Link>
      </p>
    </EmptyState>
  );
}

/** /mylist/bookmark: the user's bookmarks, newest first, each with a remove button. */
export function BookmarkList() {
  const dispatch = useAppDispatch();
  const list = usePagedList(source);
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = (b: Bookmark) => {
    setRemoving(b.gameId);
    removeBookmark(b.gameId)
      .then(() => {
        list.drop((x) => x.gameId === b.gameId);
        track('bookmark', { gameId: b.gameId, action: 'remove' });
        dispatch(pushToast('success', { message: `「${b.game.title}」のブックマークを解除しました。` }));
      })
      .catch((e: unknown) => dispatch(pushToast('error', { message: errorMessage(e, 'ブックマークを解除できませんでした。もう一度お試しください。') })))
      .finally(() => setRemoving(null));
  };

  return (
    <ListStatus status={list.status} error={list.error} empty={list.items.length === 0} emptyState={<BookmarkEmpty />} onRetry={list.retry}>
      <Grid data-testid="bookmark-list">
        {list.items.map((b) => (
          <li key={b.gameId} data-testid="bookmark-item" data-game-id={b.gameId}>
            <MyListCard
              href={`/title/${encodeURIComponent(b.gameId)}`}
              title={b.game.title}
              keyArt={b.game.keyArt}
              ageRating={b.game.ageRating}
              lines={[b.game.brand, `${formatDate(b.createdAt)}に追加`]}
              actions={
                <Button $variant="text" onClick={() => remove(b)} disabled={removing === b.gameId} aria-label={`「${b.game.title}」のブックマークを解除`}>
                  ブックマーク解除
                </Button>
              }
            />
          </li>
        ))}
      </Grid>
      <MoreFooter hasMore={!!list.nextCursor} loading={list.loadingMore} error={list.error} onMore={list.loadMore} />
    </ListStatus>
  );
}
