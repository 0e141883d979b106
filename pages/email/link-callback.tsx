import { RoutePage } from '@/components/layout/RoutePage';

export default function EmailLinkCallback() {
  return (
    <RoutePage title="メールアドレスの確認" path="/email/link-callback" narrow>
      <p>メールに記載されたリンクを確認しています。</p>
    </RoutePage>
  );
}
