/**
 * /mylist/screenshot/[id]: one screenshot at full resolution (the PNG, not the gallery's
 * thumbnail), its title and date, download, share and delete (ScreenshotActions.tsx), or a
 * "not found" for a malformed, deleted or someone else's id.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { EmptyState } from '@/components/ui/EmptyState';
import { LoadingBlock } from '@/components/ui/Spinner';
import { formatDateTime } from '@/lib/mylist/format';
import { useScreenshot } from '@/lib/mylist/useScreenshot';
import { useScreenshotImage } from '@/lib/mylist/useScreenshotImage';
import { useTitleLookup } from '@/lib/mylist/useTitleLookup';
import { GALLERY_PATH, ScreenshotActions } from './ScreenshotActions';
import { ScreenshotImage } from './ScreenshotImage';

const Meta = styled.p`
  margin: 12px 0 0;
  color: ${({ theme }) => theme.textMuted};
  a {
    color: inherit;
  }
`;

export function ScreenshotNotFound() {
  return (
    <EmptyState title="スクリーンショットが見つかりません">
      <p data-testid="screenshot-not-found">
        削除されたか、URLが正しくない可能性があります。<Link href={GALLERY_PATH}>一覧に戻る</Link>
      </p>
    </EmptyState>
  );
}

/** /mylist/screenshot/[id]: one screenshot, large, with download, share and delete. */
export function ScreenshotViewer({ id }: { id: string }) {
  const load = useScreenshot(id);
  const image = useScreenshotImage(load.status === 'ready' ? load.shot.id : null, 'image');
  const titleOf = useTitleLookup();

  if (load.status === 'loading') return <LoadingBlock />;
  if (load.status === 'not_found') return <ScreenshotNotFound />;
  if (load.status === 'error') {
    return (
      <EmptyState title="読み込めませんでした">
        <p role="alert">{load.message}</p>
        <Link href={GALLERY_PATH}>一覧に戻る</Link>
      </EmptyState>
    );
  }
  const { shot } = load;
  const game = titleOf(shot.gameId);
  const name = game?.title ?? shot.gameId;
  const date = formatDateTime(shot.createdAt);
  return (
    <div data-testid="screenshot-viewer" data-screenshot-id={shot.id}>
      <ScreenshotImage url={image.url} error={image.error} width={shot.width} height={shot.height} alt={`${name}のスクリーンショット（${date}）`} ageRating={game?.ageRating} priority />
      <Meta>
        <Link href={`/title/${encodeURIComponent(shot.gameId)}`}>{name}</Link>・{date}
      </Meta>
      <ScreenshotActions shot={shot} title={name} url={image.url} blob={image.blob} />
      <Link href={GALLERY_PATH}>スクリーンショット一覧に戻る</Link>
    </div>
  );
}
