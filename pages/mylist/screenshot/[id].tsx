import Link from 'next/link';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';

export default function Screenshot() {
  const { query } = useRouter();
  const id = typeof query.id === 'string' ? query.id : '';
  return (
    <RoutePage title="スクリーンショット" path={`/mylist/screenshot/${encodeURIComponent(id)}`} gated>
      <EmptyState title="スクリーンショットが見つかりません">
        <p>
          削除されたか、URLが正しくない可能性があります。<Link href="/mylist/screenshot">一覧に戻る</Link>
        </p>
      </EmptyState>
    </RoutePage>
  );
}
