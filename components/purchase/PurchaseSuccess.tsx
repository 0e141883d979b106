/**
 * The end of the purchase (issue 9 §3.3): what the user now has (the plan, until when, the
 * renewal), and the premium titles to press play on at once. The ID token is refreshed behind
 * it (lib/purchase/refreshClaim) so the header and settings show the plan immediately.
 */
import { useEffect, useState } from 'react';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { LinkButton } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Panel';
import { Spinner } from '@/components/ui/Spinner';
import { fetchPremiumTitles, type PremiumTitle, type Subscription } from '@/lib/api/purchase';
import { formatPlanDate, priceLabel } from '@/lib/purchase/format';
import { SETTINGS_PURCHASE_PATH } from '@/lib/purchase/paths';
import type { ClaimState } from '@/lib/purchase/usePurchaseFlow';

const Box = styled(Callout)`
  margin: 0;
  h2 {
    margin: 0 0 8px;
    font-size: 1.25rem;
  }
  ul {
    list-style: none;
    padding: 0;
    margin: 8px 0 16px;
    display: flex;
    flex-direction: column;
    gap: 8px;
  }
  .muted {
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.85rem;
  }
`;

interface Props {
  subscription: Subscription;
  claim: ClaimState;
}

export function PurchaseSuccess({ subscription, claim }: Props) {
  const [titles, setTitles] = useState<PremiumTitle[] | null>(null);
  const until = subscription.accessUntil ?? subscription.currentPeriodEnd;
  useEffect(() => {
    let live = true;
    fetchPremiumTitles()
      .then((t) => live && setTitles(t))
      .catch(() => live && setTitles([]));
    return () => {
      live = false;
    };
  }, []);

  return (
    <Box as="section" $tone="primary" $strong data-testid="purchase-success" aria-live="polite">
      <h2>{subscription.plan.name}に登録しました</h2>
      <p data-testid="success-until">
        {formatPlanDate(until)} までご利用いただけます。{subscription.cancelAtPeriodEnd ? '' : `以降は自動で更新されます（${priceLabel(subscription.plan)}）。`}
      </p>
      <p>プレミアム作品をすべて遊べるようになりました。さっそくプレイしてみましょう。</p>
      {claim === 'refreshing' && (
        <p className="muted" data-testid="claim-refreshing">
          <Spinner size="small" label="会員情報を更新しています" /> 会員情報を更新しています…
        </p>
      )}
      {claim === 'late' && (
        <p className="muted" data-testid="claim-late">
          会員情報の反映に時間がかかっています。プレイできない場合は、少し待ってからページを再読み込みしてください。
        </p>
      )}
      {titles === null ? (
        <Spinner label="タイトルを読み込んでいます" />
      ) : (
        titles.length > 0 && (
          <ul data-testid="premium-titles">
            {titles.slice(0, 5).map((t) => (
              <li key={t.id}>
                {/* An age-rated title goes through its page, where the age question is asked. */}
                {t.ageRating === 'r18' ? (
                  <LinkButton href={`/title/${encodeURIComponent(t.id)}`} $variant="normal" $block data-testid="play-premium">
                    {t.title} の作品ページへ
                  </LinkButton>
                ) : (
                  <LinkButton href={`/play/${encodeURIComponent(t.id)}`} $variant="primary" $block data-testid="play-premium">
                    {t.title} をプレイする
                  </LinkButton>
                )}
              </li>
            ))}
          </ul>
        )
      )}
      <p>
        <Link href={SETTINGS_PURCHASE_PATH}>プランとお支払いの確認・解約</Link>
      </p>
    </Box>
  );
}
