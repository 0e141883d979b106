/**
 * /settings/purchase: the user's premium plan. Valid (有効) only while paymentExpirationTime is
 * in the future; a past one reads as expired with a way back to the plans (lib/purchase/plan).
 */
import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { planStatus } from '@/lib/purchase/plan';
import { useAppSelector } from '@/store/hooks';
import { selectUser } from '@/store/slices/user';

export default function SettingsPurchase() {
  const user = useAppSelector(selectUser);
  const plan = planStatus(user?.paymentExpirationTime);
  return (
    <RoutePage title="プランとお支払い" path="/settings/purchase" narrow gated>
      {plan.kind === 'active' ? (
        <p data-testid="plan-status">プレミアムプランは {plan.date} まで有効です。</p>
      ) : plan.kind === 'expired' ? (
        <EmptyState title="プレミアムプランの有効期限が切れています">
          <p data-testid="plan-status">
            {plan.date} に期限切れになりました。引き続きご利用いただくには、<Link href="/upgrade">プランを見る</Link>
          </p>
        </EmptyState>
      ) : (
        <EmptyState title="ご契約中のプランはありません">
          <p>
            プレミアムプランでは、すべてのタイトルを遊び放題でお楽しみいただけます。<Link href="/upgrade">プランを見る</Link>
          </p>
        </EmptyState>
      )}
    </RoutePage>
  );
}
