import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { Lead } from '@/components/ui/Page';

export default function NotFound() {
  return (
    <RoutePage title="ページが見つかりません" path="/404" narrow>
      <Lead>お探しのページは削除されたか、URLが変更された可能性があります。</Lead>
      <p>
        <Link href="/">ホームへ戻る</Link> ／ <Link href="/search">タイトルをさがす</Link>
      </p>
    </RoutePage>
  );
}
