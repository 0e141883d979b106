import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';

export default function Bookmarks() {
  return (
    <RoutePage title="ブックマーク" path="/mylist/bookmark" gated>
      <EmptyState title="まだブックマークはありません">
        <p>
          気になるタイトルは作品ページからブックマークできます。<Link href="/search">タイトルをさがす</Link>
        </p>
      </EmptyState>
    </RoutePage>
  );
}
