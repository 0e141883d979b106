import { Link } from '@/components/ui/Link';
import type { ReactNode } from 'react';
import { Grid, RowHead } from '@/components/catalog/layout';
import { Section, SectionTitle } from '@/components/ui/Page';
import { listBookmarks, listScreenshots, type Bookmark, type Screenshot } from '@/lib/api/mylist';
import { formatDate } from '@/lib/mylist/format';
import { usePagedList, type PagedSource } from '@/lib/mylist/usePagedList';
import { usePlayHistories } from '@/lib/mylist/usePlayHistories';
import { useTitleLookup } from '@/lib/mylist/useTitleLookup';
import { BookmarkEmpty } from './BookmarkList';
import { HistoryCard, HistoryEmpty } from './HistoryList';
import { ListStatus } from './ListStates';
import { MyListCard } from './MyListCard';
import { ScreenshotEmpty, screenshotSource, ScreenshotTile } from './ScreenshotGallery';

/** How many of each the overview shows. */
export const OVERVIEW_COUNT = 4;

const latestBookmarks: PagedSource<Bookmark> = {
  load: () => listBookmarks({ limit: OVERVIEW_COUNT }),
  idOf: (b) => b.gameId,
  failed: 'ブックマークを読み込めませんでした。',
};

const latestScreenshots: PagedSource<Screenshot> = {
  ...screenshotSource,
  load: () => listScreenshots({ limit: OVERVIEW_COUNT }),
};

function OverviewSection({ title, href, testId, children }: { title: string; href: string; testId: string; children: ReactNode }) {
  const headingId = `${testId}-heading`;
  return (
    <Section aria-labelledby={headingId} data-testid={testId}>
      <RowHead>
        <SectionTitle id={headingId}>{title}</SectionTitle>
        <Link href={href}>すべて見る</Link>
      </RowHead>
      {children}
    </Section>
  );
}

/** /mylist: the latest bookmarks, plays and screenshots, each linking to its full page. */
export function MyListOverview() {
  const bookmarks = usePagedList(latestBookmarks);
  const history = usePlayHistories();
  const shots = usePagedList(latestScreenshots);
  const titleOf = useTitleLookup();
  return (
    <>
      <OverviewSection title="最近のブックマーク" href="/mylist/bookmark" testId="overview-bookmarks">
        <ListStatus status={bookmarks.status} error={bookmarks.error} empty={bookmarks.items.length === 0} emptyState={<BookmarkEmpty />} onRetry={bookmarks.retry}>
          <Grid>
            {bookmarks.items.map((b) => (
              <li key={b.gameId}>
                <MyListCard href={`/title/${encodeURIComponent(b.gameId)}`} title={b.game.title} keyArt={b.game.keyArt} ageRating={b.game.ageRating} lines={[`${formatDate(b.createdAt)}に追加`]} />
              </li>
            ))}
          </Grid>
        </ListStatus>
      </OverviewSection>
      <OverviewSection title="最近プレイしたタイトル" href="/mylist/history" testId="overview-history">
        <ListStatus status={history.status} error={history.error} empty={history.histories.length === 0} emptyState={<HistoryEmpty />}>
          <Grid>
            {history.histories.slice(0, OVERVIEW_COUNT).map((h) => (
              <li key={h.gameId}>
                <HistoryCard h={h} />
              </li>
            ))}
          </Grid>
        </ListStatus>
      </OverviewSection>
      <OverviewSection title="最近のスクリーンショット" href="/mylist/screenshot" testId="overview-screenshots">
        <ListStatus status={shots.status} error={shots.error} empty={shots.items.length === 0} emptyState={<ScreenshotEmpty />} onRetry={shots.retry}>
          <Grid>
            {shots.items.map((s) => (
              <li key={s.id}>
                <ScreenshotTile shot={s} game={titleOf(s.gameId)} />
              </li>
            ))}
          </Grid>
        </ListStatus>
      </OverviewSection>
    </>
  );
}
