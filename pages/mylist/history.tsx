import { RoutePage } from '@/components/layout/RoutePage';
import { HistoryList } from '@/components/mylist/HistoryList';

export default function History() {
  return (
    <RoutePage title="プレイ履歴" path="/mylist/history" gated>
      <HistoryList />
    </RoutePage>
  );
}
