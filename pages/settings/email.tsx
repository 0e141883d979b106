import { RoutePage } from '@/components/layout/RoutePage';
import { useAppSelector } from '@/store/hooks';

export default function SettingsEmail() {
  const user = useAppSelector((s) => s.user.user);
  return (
    <RoutePage title="メールアドレスの変更" path="/settings/email" narrow gated>
      <p>現在のメールアドレス：{user?.email}</p>
      <p>変更には、現在のパスワードでの再確認と、新しいアドレスに届く確認メールのリンクを開く操作が必要です。</p>
    </RoutePage>
  );
}
