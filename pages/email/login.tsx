import Link from 'next/link';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { loginWithEmail } from '@/lib/auth/emailAuth';

export default function EmailLogin() {
  const router = useRouter();
  return (
    <RoutePage title="メールアドレスでログイン" path="/email/login" narrow gated>
      <EmailPasswordForm
        submitLabel="ログイン"
        onSubmit={loginWithEmail}
        onSuccess={() => void router.replace('/')}
        footer={
          <p>
            <Link href="/email/password/reset">パスワードをお忘れの方</Link>
            <br />
            はじめての方は <Link href="/email/signup">新規登録</Link>
          </p>
        }
      />
    </RoutePage>
  );
}
