import { Link } from '@/components/ui/Link';
import { useEffect } from 'react';
import styled from 'styled-components';
import { Button, LinkButton } from '@/components/ui/Button';
import { UPGRADE_PATH } from '@/lib/purchase/paths';
import { syncPaymentClaim } from '@/lib/purchase/syncClaim';
import { FAILURE_MESSAGES, type PlayFailure } from '@/lib/session/playMessages';

const Box = styled.div`
  max-width: 440px;
  padding: 28px 24px;
  border-radius: 16px;
  background: ${({ theme }) => theme.surface};
  color: ${({ theme }) => theme.text};
  text-align: center;
  h2 {
    margin: 0 0 12px;
    font-size: 1.2rem;
  }
  p {
    line-height: 1.8;
    color: ${({ theme }) => theme.textMuted};
  }
  .actions {
    display: flex;
    flex-direction: column;
    gap: 10px;
    margin-top: 20px;
  }
`;

interface Props {
  failure: PlayFailure;
  gameId: string;
  onRetry: () => void;
  onCloseOthers?: () => void;
  onLogin?: () => void;
}

/**
 * A clear Japanese message for every failure, with what the player can do next. A premium title
 * without an active plan (`subscription_required`) gets the upgrade prompt: a link to /upgrade,
 * and the browser fetches a fresh token so the header and title pages stop calling an ended plan
 * active.
 */
export function FailurePanel({ failure, gameId, onRetry, onCloseOthers, onLogin }: Props) {
  const m = FAILURE_MESSAGES[failure];
  useEffect(() => {
    if (failure === 'subscription_required') void syncPaymentClaim();
  }, [failure]);
  return (
    <Box role="alert" data-testid="play-failure" data-failure={failure}>
      <h2>{m.title}</h2>
      <p>{m.body}</p>
      <div className="actions">
        {failure === 'instance_limit' && onCloseOthers && (
          <Button $variant="primary" $block onClick={onCloseOthers} data-testid="close-others">
            ほかのプレイを終了して始める
          </Button>
        )}
        {failure === 'verified_required' && onLogin && (
          <Button $variant="primary" $block onClick={onLogin}>
            ログイン・新規登録
          </Button>
        )}
        {failure === 'subscription_required' && (
          <LinkButton href={UPGRADE_PATH} $variant="primary" $block data-testid="upgrade-link">
            プレミアムプランを見る
          </LinkButton>
        )}
        {failure !== 'game_not_found' && failure !== 'verified_required' && failure !== 'unsupported' && failure !== 'subscription_required' && (
          <Button $variant={failure === 'instance_limit' ? 'normal' : 'primary'} $block onClick={onRetry} data-testid="play-retry">
            {m.retry}
          </Button>
        )}
        <Link href={failure === 'game_not_found' ? '/' : `/title/${encodeURIComponent(gameId)}`}>
          {failure === 'game_not_found' ? 'ホームへ戻る' : '作品ページへ戻る'}
        </Link>
      </div>
    </Box>
  );
}
