import { useState } from 'react';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { CredentialForm } from '@/components/form/PasswordFields';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { AuthError } from '@/components/form/AuthError';
import { Button } from '@/components/ui/Button';
import { changePassword, sendPasswordReset } from '@/lib/auth/emailAuth';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { pushToast } from '@/store/slices/toastThunks';

/** Without a password yet (X or e-mail link accounts): a reset mail sets the first one. */
function SetFirstPassword({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [code, setCode] = useState<string | null>(null);
  if (state === 'sent') {
    return (
      <FormMessage data-testid="reset-sent">
        {email} にパスワード設定用のメールを送信しました。メール内のリンクからパスワードを設定してください。
        <MailboxHint email={email} />
      </FormMessage>
    );
  }
  return (
    <>
      <AuthError code={code} />
      <p>このアカウントにはまだパスワードがありません。{email} にパスワード設定用のメールをお送りします。</p>
      <Button
        $variant="primary"
        $block
        disabled={state === 'busy'}
        onClick={async () => {
          setState('busy');
          const r = await sendPasswordReset(email);
          setState(r.result ? 'sent' : 'idle');
          setCode(r.result ? null : r.code);
        }}
      >
        パスワード設定メールを送る
      </Button>
    </>
  );
}

/** Password change after re-entering the current password (spec section 5). */
export default function SettingsPassword() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.user.user);
  const [done, setDone] = useState(false);
  const hasPassword = !!user?.signInMethods.includes('password');
  return (
    <RoutePage title="パスワードの変更" path="/settings/password" narrow gated>
      {done ? (
        <FormMessage data-testid="password-changed">
          パスワードを変更しました。次回から新しいパスワードでログインしてください。 <Link href="/settings">設定に戻る</Link>
        </FormMessage>
      ) : hasPassword ? (
        <>
          <p>安全のため、現在のパスワードを入力してから新しいパスワード（6文字以上）を設定してください。</p>
          <CredentialForm
            fields={{ current: true, newPassword: true }}
            submitLabel="パスワードを変更する"
            onSubmit={(v) => changePassword(v.currentPassword, v.newPassword)}
            onSuccess={() => {
              setDone(true);
              dispatch(pushToast('success', { message: 'パスワードを変更しました' }));
            }}
            footer={
              <p>
                現在のパスワードがわからない場合は、ログアウトして <Link href="/email/password/reset">パスワードの再設定</Link> を行ってください。
              </p>
            }
          />
        </>
      ) : user?.email ? (
        <SetFirstPassword email={user.email} />
      ) : (
        <p>
          パスワードを設定するには、先に <Link href="/settings/email">メールアドレスとパスワードを登録</Link> してください。
        </p>
      )}
    </RoutePage>
  );
}
