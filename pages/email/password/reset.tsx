import { useState } from 'react';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { sendPasswordReset } from '@/lib/auth/emailAuth';

export default function PasswordReset() {
  const [sent, setSent] = useState(false);
  return (
    <RoutePage title="パスワードの再設定" path="/email/password/reset" narrow gated>
      {sent ? (
        <FormMessage data-testid="reset-sent">
          パスワード再設定用のメールを送信しました。メール内のリンクから新しいパスワードを設定してください。
          <MailboxHint />
        </FormMessage>
      ) : (
        <EmailPasswordForm submitLabel="再設定メールを送る" withPassword={false} onSubmit={(email) => sendPasswordReset(email)} onSuccess={() => setSent(true)} />
      )}
    </RoutePage>
  );
}
