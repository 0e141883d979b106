import { Link } from '@/components/ui/Link';
import { LinkButton } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { formatDateTime, formatPlayTime } from '@/lib/mylist/format';
import type { StoredPlayHistory } from '@/lib/mylist/playHistory';
import { usePlayHistories } from '@/lib/mylist/usePlayHistories';
import { Grid } from '@/components/catalog/layout';
import { ListStatus, MoreFooter } from './ListStates';
import { MyListCard } from './MyListCard';

export function HistoryEmpty() {
  return (
    <EmptyState title="まだプレイ履歴はありません">
      <p>
        タイトルを遊ぶと、最後に遊んだ日時とプレイ時間がここに記録されます。<Link href="/">タイトルをさがす</Link>
      </p>
    </EmptyState>
  );
}

/** The lines of one history entry: last played, total time, play count. */
export function historyLines(h: StoredPlayHistory): string[] {
  const lines = [`最終プレイ ${formatDateTime(h.lastPlayedAt)}`, `合計 ${formatPlayTime(h.totalSeconds)}`];
  if (h.playCount !== undefined) lines.push(`プレイ回数 ${h.playCount}回`);
  return lines;
}

export function HistoryCard({ h }: { h: StoredPlayHistory }) {
  const id = encodeURIComponent(h.gameId);
  return (
    <MyListCard
      href={`/title/${id}`}
      title={h.title}
      keyArt={h.game?.keyArt}
      ageRating={h.game?.ageRating}
      lines={historyLines(h)}
      actions={
        <LinkButton href={`/play/${id}`} $variant="primary" aria-label={`「${h.title}」を続きから遊ぶ`} data-testid="continue-button">
          続きから遊ぶ
        </LinkButton>
      }
    />
  );
}

/** /mylist/history: last played first, refreshed each time the page opens. */
export function HistoryList() {
  const view = usePlayHistories();
  return (
    <ListStatus status={view.status} error={view.error} empty={view.histories.length === 0} emptyState={<HistoryEmpty />}>
      <Grid data-testid="history-list">
        {view.histories.map((h) => (
          <li key={h.gameId} data-testid="history-item" data-game-id={h.gameId}>
            <HistoryCard h={h} />
          </li>
        ))}
      </Grid>
      <MoreFooter hasMore={!!view.nextCursor} loading={view.loadingMore} error={view.status === 'ready' ? view.error : null} onMore={view.loadMore} />
    </ListStatus>
  );
}
