import styled from 'styled-components';
import { Section, SectionTitle } from '@/components/ui/Page';
import { formatDateTime } from '@/lib/mylist/format';
import { usePlayHistories } from '@/lib/mylist/usePlayHistories';
import { CardRow } from './CardRow';
import { MyListCard } from './MyListCard';

/** How many recently played titles the row shows. */
export const CONTINUE_PLAYING_COUNT = 8;

const Wrap = styled(Section)`
  min-width: 0;
`;

/**
 * 「続きから遊ぶ」: the verified user's recently played titles, each opening its play page.
 * Renders nothing for visitors and for users without history (no empty row on the home page).
 */
export function ContinuePlaying() {
  const { histories } = usePlayHistories();
  if (histories.length === 0) return null;
  return (
    <Wrap aria-labelledby="continue-playing-heading" data-testid="continue-playing">
      <SectionTitle id="continue-playing-heading">続きから遊ぶ</SectionTitle>
      <CardRow>
        {histories.slice(0, CONTINUE_PLAYING_COUNT).map((h) => (
          <li key={h.gameId}>
            <MyListCard href={`/play/${encodeURIComponent(h.gameId)}`} title={h.title} keyArt={h.game?.keyArt} ageRating={h.game?.ageRating} lines={[`最終プレイ ${formatDateTime(h.lastPlayedAt)}`]} />
          </li>
        ))}
      </CardRow>
    </Wrap>
  );
}
