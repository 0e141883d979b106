import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { loginWithEmail } from '@/lib/auth/emailAuth';
import { firstQueryValue, safeRedirectPath } from '@/lib/auth/safeRedirect';
import { useAppDispatch } from '@/store/hooks';
import { setLoginErrorCode } from '@/store/slices/user';
import { pushToast } from '@/store/slices/toastThunks';

export default function EmailLogin() {
  const router = useRouter();
  const dispatch = useAppDispatch();
  // ?next= is followed only when it is a same-origin path (no open redirect).
  const next = safeRedirectPath(firstQueryValue(router.query.next)) ?? '/';
  return (
    <RoutePage title="メールアドレスでログイン" path="/email/login" narrow gated>
      <EmailPasswordForm
        submitLabel="ログイン"
        messageContext="login"
        onSubmit={loginWithEmail}
        onFailure={(code) => dispatch(setLoginErrorCode(code))}
        onSuccess={() => {
          dispatch(setLoginErrorCode(null));
          dispatch(pushToast('success', { message: 'ログインしました' }));
          void router.replace(next);
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
