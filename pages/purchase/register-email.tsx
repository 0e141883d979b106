import { RoutePage } from '@/components/layout/RoutePage';
import { useAppSelector } from '@/store/hooks';

export default function RegisterEmail() {
  const user = useAppSelector((s) => s.user.user);
  return (
    <RoutePage title="お支払い用メールアドレスの登録" path="/purchase/register-email" narrow gated>
      <p>領収書やプランの更新のお知らせは、次のアドレスにお送りします。</p>
      <p data-testid="purchase-email">{user?.email}</p>
    </RoutePage>
  );
}
