import { RoutePage } from '@/components/layout/RoutePage';

export default function PurchaseLinkCallback() {
  return (
    <RoutePage title="ログインリンクの確認" path="/purchase/link-callback" narrow>
      <p>メールのログイン用リンクを確認しています。このページは、リンクを送ったのと同じ端末・ブラウザで開いてください。</p>
    </RoutePage>
  );
}
