import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { useAppSelector } from '@/store/hooks';

export default function SettingsPurchase() {
  const user = useAppSelector((s) => s.user.user);
  return (
    <RoutePage title="プランとお支払い" path="/settings/purchase" narrow gated>
      {user?.paymentExpirationTime ? (
        <p>プレミアムプランは {new Date(user.paymentExpirationTime * 1000).toLocaleDateString('ja-JP')} まで有効です。</p>
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
