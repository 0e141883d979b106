import { RoutePage } from '@/components/layout/RoutePage';
import { BookmarkList } from '@/components/mylist/BookmarkList';

export default function Bookmarks() {
  return (
    <RoutePage title="ブックマーク" path="/mylist/bookmark" gated>
      <BookmarkList />
    </RoutePage>
  );
}
