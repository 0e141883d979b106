import { useState } from 'react';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { sendPasswordReset } from '@/lib/auth/emailAuth';

/** Sends the password reset mail; its link opens /email/link-callback with the new-password form. */
export default function PasswordReset() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <RoutePage title="パスワードの再設定" path="/email/password/reset" narrow gated>
      {sentTo ? (
        <FormMessage data-testid="reset-sent">
          {sentTo} にパスワード再設定用のメールを送信しました。メール内のリンクから新しいパスワードを設定してください。
          <MailboxHint email={sentTo} />
        </FormMessage>
      ) : (
        <EmailPasswordForm
          submitLabel="再設定メールを送る"
          withPassword={false}
          onSubmit={(email) => sendPasswordReset(email)}
          onSuccess={(email) => setSentTo(email)}
          footer={
            <p>
              登録したメールアドレスを入力してください。<Link href="/email/login">ログインに戻る</Link>
            </p>
          }
        />
      )}
    </RoutePage>
  );
}
