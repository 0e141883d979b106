import Link from 'next/link';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { loginWithEmail } from '@/lib/auth/emailAuth';
import { useAppDispatch } from '@/store/hooks';
import { pushToast } from '@/components/toast/toastActions';

export default function EmailLogin() {
  const router = useRouter();
  const dispatch = useAppDispatch();
  return (
    <RoutePage title="メールアドレスでログイン" path="/email/login" narrow gated>
      <EmailPasswordForm
        submitLabel="ログイン"
        onSubmit={loginWithEmail}
        onSuccess={() => {
          dispatch(pushToast('success', { message: 'ログインしました' }));
          void router.replace('/');
        }}
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
