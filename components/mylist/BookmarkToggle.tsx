import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { useBookmark } from '@/lib/mylist/useBookmark';

const Mark = styled.span`
  font-size: 1.1em;
  line-height: 1;
`;

/**
 * The bookmark button of a title page. Visitors who are not verified get the login modal;
 * verified users toggle the bookmark (optimistic, rolled back on failure).
 */
export function BookmarkToggle({ gameId, title }: { gameId: string; title: string }) {
  const { bookmarked, busy, toggle } = useBookmark(gameId);
  const on = bookmarked === true;
  return (
    <Button
      $variant={on ? 'primary' : 'normal'}
      aria-pressed={on}
      aria-busy={busy || bookmarked === null}
      title={on ? `「${title}」のブックマークを解除` : `「${title}」をブックマーク`}
      disabled={bookmarked === null}
      onClick={toggle}
      data-testid="bookmark-toggle"
    >
      <Mark aria-hidden="true">{on ? '★' : '☆'}</Mark>
      {on ? 'ブックマーク済み' : 'ブックマーク'}
    </Button>
  );
}
