/**
 * /mylist/screenshot's gallery (and the overview's row of tiles): the user's screenshots newest
 * first, 24 a page. Each tile shows the small WebP thumbnail (a few kB), never the full PNG: the
 * viewer (ScreenshotViewer.tsx) loads that one (docs/mylist.md "Thumbnails").
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { EmptyState } from '@/components/ui/EmptyState';
import { listScreenshots, type Screenshot } from '@/lib/api/mylist';
import { formatDateTime } from '@/lib/mylist/format';
import { usePagedList, type PagedSource } from '@/lib/mylist/usePagedList';
import { useScreenshotImage } from '@/lib/mylist/useScreenshotImage';
import { useTitleLookup } from '@/lib/mylist/useTitleLookup';
import type { GameSummary } from '@/lib/types/game';
import { Grid } from '@/components/catalog/layout';
import { ListStatus, MoreFooter } from './ListStates';
import { ScreenshotImage } from './ScreenshotImage';

export const SCREENSHOT_PAGE_SIZE = 24;

export const screenshotSource: PagedSource<Screenshot> = {
  load: (cursor) => listScreenshots({ cursor, limit: SCREENSHOT_PAGE_SIZE }),
  idOf: (s) => s.id,
  failed: 'スクリーンショットを読み込めませんでした。しばらくしてからもう一度お試しください。',
};

const Tile = styled(Link)`
  display: flex;
  flex-direction: column;
  gap: 6px;
  text-decoration: none;
  color: ${({ theme }) => theme.text};
  .caption {
    margin: 0;
    font-size: 0.85rem;
  }
  .date {
    margin: 0;
    font-size: 0.75rem;
    color: ${({ theme }) => theme.textMuted};
  }
`;

export function ScreenshotEmpty() {
  return (
    <EmptyState title="まだスクリーンショットはありません">
      <p>プレイ中のメニューからスクリーンショットを撮ると、ここに保存されます。</p>
    </EmptyState>
  );
}

/** One tile: its own thumbnail request, released when the tile leaves the page. */
export function ScreenshotTile({ shot, game }: { shot: Screenshot; game: GameSummary | undefined }) {
  const image = useScreenshotImage(shot.id, 'thumbnail');
  const name = game?.title ?? shot.gameId;
  const date = formatDateTime(shot.createdAt);
  return (
    <Tile href={`/mylist/screenshot/${encodeURIComponent(shot.id)}`} data-testid="screenshot-tile" data-screenshot-id={shot.id}>
      <ScreenshotImage url={image.url} error={image.error} width={shot.width} height={shot.height} alt={`${name}のスクリーンショット（${date}）`} ageRating={game?.ageRating} />
      <p className="caption">{name}</p>
      <p className="date">{date}</p>
    </Tile>
  );
}

/** /mylist/screenshot: the user's screenshots, newest first. */
export function ScreenshotGallery() {
  const list = usePagedList(screenshotSource);
  const titleOf = useTitleLookup();
  return (
    <ListStatus status={list.status} error={list.error} empty={list.items.length === 0} emptyState={<ScreenshotEmpty />} onRetry={list.retry}>
      <Grid data-testid="screenshot-gallery">
        {list.items.map((s) => (
          <li key={s.id}>
            <ScreenshotTile shot={s} game={titleOf(s.gameId)} />
          </li>
        ))}
      </Grid>
      <MoreFooter hasMore={!!list.nextCursor} loading={list.loadingMore} error={list.error} onMore={list.loadMore} />
    </ListStatus>
  );
}
