import styled from 'styled-components';
import { BookmarkToggle } from '@/components/mylist/BookmarkToggle';
import { UpgradePrompt } from '@/components/purchase/UpgradePrompt';
import { LinkButton } from '@/components/ui/Button';
import { mayShow } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { planStatus } from '@/lib/purchase/plan';
import type { GameSummary } from '@/lib/types/game';
import { useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/slices/user';
import { ShareToX } from './ShareToX';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px;
  margin: 0 0 24px;
  .hint {
    margin: 0;
    font-size: 0.9rem;
    color: ${({ theme }) => theme.textMuted};
  }
`;

/**
 * Play, bookmark and share. The play link is guarded by the route guard like any link to
 * /play/[id] (spec section 4: the open demo id for everyone, other titles for verified users);
 * an age-rated title can be played once the age question is answered with はい. A premium title
 * (issue 9) tells a user without an active plan that it needs one, with a link to /upgrade (the
 * server refuses its start with `subscription_required` all the same).
 */
export function TitleActions({ game }: { game: GameSummary }) {
  const { state } = useSafeCheck();
  const user = useAppSelector(selectUser);
  const needsPlan = game.premium && planStatus(user?.paymentExpirationTime).kind !== 'active';
  return (
    <>
      {needsPlan && <UpgradePrompt compact />}
      <Bar>
        {mayShow(game, state) ? (
          <LinkButton href={`/play/${encodeURIComponent(game.id)}`} $variant="primary" $size="large" data-testid="play-button">
            プレイする
          </LinkButton>
        ) : (
          <p className="hint" data-testid="play-needs-age">
            18歳以上の方のみプレイできます。
          </p>
        )}
        <BookmarkToggle gameId={game.id} title={game.title} />
        <ShareToX gameId={game.id} title={game.title} />
      </Bar>
    </>
  );
}
