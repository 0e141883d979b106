import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';

export default function Screenshots() {
  return (
    <RoutePage title="スクリーンショット" path="/mylist/screenshot" gated>
      <EmptyState title="まだスクリーンショットはありません">
        <p>プレイ中のメニューからスクリーンショットを撮ると、ここに保存されます。</p>
      </EmptyState>
    </RoutePage>
  );
}
