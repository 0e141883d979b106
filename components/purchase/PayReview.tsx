/**
 * The final confirmation before the charge (the "最終確認画面" Japanese law asks of online
 * subscriptions): the plan, its price tax included, when it is charged, the renewal, how to
 * cancel, the card. Its button starts the payment; it is disabled while the payment runs, and
 * the flow below it (lib/purchase/usePurchaseFlow) ignores a second press, so a double click
 * sends one request.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import type { Plan } from '@/lib/api/purchase';
import type { SavedCard } from '@/lib/purchase/hostedMessages';
import { brandLabel, formatYen, periodLabel, priceLabel } from '@/lib/purchase/format';
import { TOKUSHOHO_PATH } from '@/lib/purchase/paths';

const Table = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 10px 16px;
  margin: 0 0 16px;
  padding: 16px;
  border-radius: 12px;
  background: ${({ theme }) => theme.surface};
  dt {
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.9rem;
  }
  dd {
    margin: 0;
    line-height: 1.7;
  }
`;

const Note = styled.p`
  font-size: 0.85rem;
  line-height: 1.8;
  color: ${({ theme }) => theme.textMuted};
`;

interface Props {
  plan: Plan;
  card: SavedCard | null;
  paying: boolean;
  onPay: () => void;
  onChangeCard: () => void;
}

export function PayReview({ plan, card, paying, onPay, onChangeCard }: Props) {
  return (
    <section data-testid="pay-review" aria-label="ご登録内容の確認">
      <Table>
        <dt>プラン</dt>
        <dd data-testid="review-plan">{plan.name}</dd>
        <dt>料金</dt>
        <dd data-testid="review-price">{priceLabel(plan)}</dd>
        <dt>お支払い時期</dt>
        <dd>
          本日 {formatYen(plan.amountJpy)} をお支払いいただき、以降は{periodLabel(plan)}ごとに自動で更新・請求されます。
        </dd>
        <dt>ご利用開始</dt>
        <dd>お支払いの完了後すぐ</dd>
        <dt>解約</dt>
        <dd>設定の「プランとお支払い」からいつでも解約できます。解約後も、お支払い済みの期間の終わりまでご利用いただけます。</dd>
        <dt>お支払い方法</dt>
        <dd data-testid="review-card">{card ? `${brandLabel(card.brand)} •••• ${card.last4}` : '登録したクレジットカード'}</dd>
      </Table>
      <Button $variant="primary" $size="large" $block onClick={onPay} disabled={paying} aria-busy={paying} data-testid="pay-button">
        {paying ? (
          <>
            <Spinner size="small" label="お支払いを処理しています" /> お支払いを処理しています…
          </>
        ) : (
          `${formatYen(plan.amountJpy)}（税込）を支払って登録する`
        )}
      </Button>
      <Note>
        「支払って登録する」を押すと、<Link href="/terms">利用規約</Link>と<Link href={TOKUSHOHO_PATH}>特定商取引法に基づく表記</Link>
        の内容に同意のうえ、お申し込みいただいたものとみなします。
      </Note>
      <Button $variant="text" onClick={onChangeCard} disabled={paying} data-testid="review-change-card">
        別のカードを使う
      </Button>
    </section>
  );
}
