import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { Lead } from '@/components/ui/Page';

export default function ErrorPage() {
  return (
    <RoutePage title="エラーが発生しました" path="/error" narrow>
      <Lead>申し訳ありません。処理を完了できませんでした。時間をおいてもう一度お試しください。</Lead>
      <p>
        <Link href="/">ホームへ戻る</Link>
      </p>
    </RoutePage>
  );
}
