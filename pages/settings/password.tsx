import { RoutePage } from '@/components/layout/RoutePage';

export default function SettingsPassword() {
  return (
    <RoutePage title="パスワードの変更" path="/settings/password" narrow gated>
      <p>安全のため、パスワードの変更には現在のパスワードでの再確認が必要です。</p>
    </RoutePage>
  );
}
