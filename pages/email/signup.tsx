import { useState } from 'react';
import { Link } from '@/components/ui/Link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { signUpWithEmail } from '@/lib/auth/emailAuth';

/**
 * Sign-up (spec section 4): the visitor's anonymous account is linked to the e-mail and
 * password (its uid is kept), the verification mail is sent and the user is signed out at once.
 */
export default function EmailSignup() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <RoutePage title="メールアドレスで新規登録" path="/email/signup" narrow gated>
      {sentTo ? (
        <FormMessage data-testid="signup-sent">
          {sentTo} に確認メールを送信しました。メール内のリンクを開いて登録を完了してから、
          <Link href="/email/login">ログイン</Link>してください。
          <MailboxHint email={sentTo} />
        </FormMessage>
      ) : (
        <EmailPasswordForm
          submitLabel="登録する"
          passwordAutoComplete="new-password"
          confirmPassword
          onSubmit={signUpWithEmail}
          onSuccess={(email) => setSentTo(email)}
          footer={
            <p>
              パスワードは6文字以上で設定してください。登録することで、<Link href="/terms">利用規約</Link>と
              <Link href="/privacy">プライバシーポリシー</Link>
              に同意したものとみなします。すでにアカウントをお持ちの方は <Link href="/email/login">ログイン</Link>
            </p>
          }
        />
      )}
    </RoutePage>
  );
}
