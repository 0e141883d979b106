import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { Lead } from '@/components/ui/Page';

export default function SignupPurchase() {
  return (
    <RoutePage title="プレミアムプランに登録" path="/signup/purchase" narrow>
      <Lead>登録は3つのステップで完了します。</Lead>
      <ol>
        <li>メールアドレスを登録する（ログイン用のリンクをお送りします）</li>
        <li>お支払いに使うカードを登録する</li>
        <li>登録完了。すぐにすべてのタイトルを遊べます</li>
      </ol>
      <p>
        すでにアカウントをお持ちの方は、<Link href="/email/login">ログイン</Link>してから登録してください。
      </p>
      <p>
        <Link href="/purchase/register-email">メールアドレスの登録へ進む</Link>
      </p>
    </RoutePage>
  );
}
