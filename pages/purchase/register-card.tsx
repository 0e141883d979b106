import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';

export default function RegisterCard() {
  return (
    <RoutePage title="お支払いカードの登録" path="/purchase/register-card" narrow gated>
      <EmptyState title="カードのお支払いはまだ受け付けていません">
        <p>お支払いの受付を開始しましたら、このページからカードを登録できるようになります。カード番号がユメキャストに保存されることはありません。</p>
      </EmptyState>
    </RoutePage>
  );
}
