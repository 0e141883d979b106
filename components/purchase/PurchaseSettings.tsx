/**
 * /settings/purchase's content (issue 9 §3.4): the plan, its state (never 有効 for a date in
 * the past: lib/purchase/status on top of planStatus), the next renewal or the end date, the card
 * (brand and last four) with "change card", cancel at period end / resume, and the payment
 * history. The state comes from the spec's GET /api/subscriptions (newest created first, the
 * first is used) and the token's paymentExpirationTime; card and history from the summary.
 */
import { useEffect, useState } from 'react';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { FactList } from '@/components/ui/Panel';
import { LoadingBlock } from '@/components/ui/Spinner';
import { Section, SectionTitle } from '@/components/ui/Page';
import { FormMessage } from '@/components/form/Field';
import { ApiClientError, messageFor } from '@/lib/api/client';
import { fetchPurchaseSummary, fetchSubscriptions, type PurchaseSummary, type Subscription } from '@/lib/api/purchase';
import { cardLabel, priceLabel } from '@/lib/purchase/format';
import { UPGRADE_PATH } from '@/lib/purchase/paths';
import { purchaseStatus } from '@/lib/purchase/status';
import { CancelControls } from './CancelControls';
import { ChangeCard } from './ChangeCard';
import { PaymentHistory } from './PaymentHistory';

/** A link the line does not break inside (プランを見る left 「る」 alone on a phone). */
const NoWrap = styled(Link)`
  white-space: nowrap;
`;

const Facts = styled(FactList)`
  [data-kind='expired'] {
    color: ${({ theme }) => theme.destructive};
    font-weight: 700;
  }
`;

type Loaded = { subscription: Subscription | null; summary: PurchaseSummary | null; error: string | null };

const messageOf = (e: unknown) => (e instanceof ApiClientError ? e.userMessage : messageFor('unexpected'));

/** Both reads at once; either may fail on its own (the other still shows). */
async function loadPurchase(): Promise<Loaded> {
  const [subs, summary] = await Promise.allSettled([fetchSubscriptions(), fetchPurchaseSummary()]);
  const failed = subs.status === 'rejected' ? subs.reason : summary.status === 'rejected' ? summary.reason : null;
  return {
    subscription: subs.status === 'fulfilled' ? (subs.value[0] ?? null) : summary.status === 'fulfilled' ? summary.value.subscription : null,
    summary: summary.status === 'fulfilled' ? summary.value : null,
    error: failed ? messageOf(failed) : null,
  };
}

export function PurchaseSettings({ claim }: { claim: number | null | undefined }) {
  const [data, setData] = useState<Loaded | null>(null);
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    let live = true;
    void loadPurchase().then((d) => live && setData(d));
    return () => {
      live = false;
    };
  }, [loads]);

  const reload = () => {
    setData(null);
    setLoads((n) => n + 1);
  };

  if (!data) return <LoadingBlock label="ご契約内容を読み込んでいます…" />;
  const { subscription: sub, summary, error } = data;
  const status = purchaseStatus(sub, claim);
  const card = sub?.card ?? summary?.card ?? null;
  const changed = (s: Subscription) => setData((d) => (d ? { ...d, subscription: s } : d));
  const live = !!sub && status.kind === 'active';

  return (
    <div data-testid="purchase-settings">
      {error && (
        <FormMessage $kind="error" role="alert" data-testid="settings-error">
          {error}{' '}
          <Button $variant="text" onClick={reload}>
            再読み込み
          </Button>
        </FormMessage>
      )}
      {status.kind === 'none' ? (
        <Section>
          <EmptyState title="ご契約中のプランはありません">
            <p data-testid="plan-status">
              プレミアムプランでは、プレミアム作品を遊び放題でお楽しみいただけます。<NoWrap href={UPGRADE_PATH}>プランを見る</NoWrap>
            </p>
          </EmptyState>
        </Section>
      ) : (
        <Section>
          <Facts>
            <dt>プラン</dt>
            <dd data-testid="settings-plan">{sub ? `${sub.plan.name}（${priceLabel(sub.plan)}）` : 'プレミアムプラン'}</dd>
            <dt>状態</dt>
            <dd data-testid="plan-status" data-kind={status.kind}>
              {status.kind === 'active' ? (status.cancelScheduled ? '解約済み（期間の終わりまで有効）' : status.pastDue ? '有効（お支払いを確認できていません）' : '有効') : '期限切れ'}
              <span> — {status.label}</span>
            </dd>
            {status.renewsOn && (
              <>
                <dt>次回更新日</dt>
                <dd data-testid="renews-on">{status.renewsOn}</dd>
              </>
            )}
            {status.endsOn && (
              <>
                <dt>{status.kind === 'active' ? '終了日' : '終了した日'}</dt>
                <dd data-testid="ends-on">{status.endsOn}</dd>
              </>
            )}
            {card && (
              <>
                <dt>お支払い方法</dt>
                <dd data-testid="settings-card">{cardLabel(card)}</dd>
              </>
            )}
          </Facts>
          {status.pastDue && (
            <FormMessage $kind="error" role="alert" data-testid="past-due">
              更新のお支払いを確認できていません。カードを変更すると、次のお支払いから新しいカードに請求します。
            </FormMessage>
          )}
          {status.kind === 'expired' && (
            <p>
              引き続きご利用いただくには、<Link href={UPGRADE_PATH}>プランを見る</Link>
            </p>
          )}
          {live && sub && (
            <>
              <ChangeCard onChanged={changed} />
              <CancelControls subscription={sub} onChanged={changed} />
            </>
          )}
        </Section>
      )}
      {summary && (
        <Section>
          <SectionTitle>お支払い履歴</SectionTitle>
          <PaymentHistory invoices={summary.invoices} />
        </Section>
      )}
    </div>
  );
}
