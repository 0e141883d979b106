import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';

export default function History() {
  return (
    <RoutePage title="プレイ履歴" path="/mylist/history" gated>
      <EmptyState title="まだプレイ履歴はありません">
        <p>タイトルを遊ぶと、最後に遊んだ日時とプレイ時間がここに記録されます。</p>
      </EmptyState>
    </RoutePage>
  );
}
