import { useState } from 'react';
import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { signUpWithEmail } from '@/lib/auth/emailAuth';

export default function EmailSignup() {
  const [sent, setSent] = useState(false);
  return (
    <RoutePage title="メールアドレスで新規登録" path="/email/signup" narrow gated>
      {sent ? (
        <FormMessage data-testid="signup-sent">
          確認メールを送信しました。メール内のリンクを開いて登録を完了してから、ログインしてください。
          <MailboxHint />
        </FormMessage>
      ) : (
        <EmailPasswordForm
          submitLabel="登録する"
          passwordAutoComplete="new-password"
          onSubmit={signUpWithEmail}
          onSuccess={() => setSent(true)}
          footer={
            <p>
              登録することで、<Link href="/terms">利用規約</Link>と<Link href="/privacy">プライバシーポリシー</Link>
              に同意したものとみなします。すでにアカウントをお持ちの方は <Link href="/email/login">ログイン</Link>
            </p>
          }
        />
      )}
    </RoutePage>
  );
}
