import { useState } from 'react';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { CredentialForm } from '@/components/form/PasswordFields';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { changeEmail, registerEmailPassword } from '@/lib/auth/emailAuth';
import { useAppSelector } from '@/store/hooks';

/**
 * E-mail change (spec sections 5 and 7): the current password first, then verify-before-update;
 * the address changes when the link sent to the new address is opened (/email/link-callback).
 * An account without a password (X only) registers an e-mail and password here instead.
 */
export default function SettingsEmail() {
  const user = useAppSelector((s) => s.user.user);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const hasPassword = !!user?.signInMethods.includes('password');
  return (
    <RoutePage title="メールアドレスの変更" path="/settings/email" narrow gated>
      {user?.email && !user.isAnonymous && (
        <p data-testid="current-email">
          現在のメールアドレス：{user.email}
          {!user.emailVerified && '（未確認）'}
        </p>
      )}
      {sentTo ? (
        <FormMessage data-testid="email-change-sent">
          {sentTo} に確認メールを送信しました。メール内のリンクを開くと、{hasPassword ? '変更' : '登録'}が完了します。
          <MailboxHint email={sentTo} />
        </FormMessage>
      ) : hasPassword ? (
        <>
          <p>安全のため、現在のパスワードを入力してください。新しいアドレスに届く確認メールのリンクを開くと、変更が完了します。</p>
          <CredentialForm
            fields={{ newEmail: true, current: true }}
            submitLabel="確認メールを送る"
            onSubmit={(v) => changeEmail(v.currentPassword, v.newEmail)}
            onSuccess={(v) => setSentTo(v.newEmail)}
          />
        </>
      ) : user?.email ? (
        <p>
          メールアドレスを変更するには、先に <Link href="/settings/password">パスワードを設定</Link> してください。
        </p>
      ) : (
        <>
          <p>メールアドレスとパスワードを登録すると、X（Twitter）がなくてもログインできます。</p>
          <EmailPasswordForm
            submitLabel="登録する"
            confirmPassword
            passwordAutoComplete="new-password"
            onSubmit={registerEmailPassword}
            onSuccess={(email) => setSentTo(email)}
          />
        </>
      )}
    </RoutePage>
  );
}
