import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { Button, LinkButton } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { useSocialLogin } from '@/lib/auth/useSocialLogin';
import { firstQueryValue, safeRedirectPath } from '@/lib/auth/safeRedirect';

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  p {
    color: ${({ theme }) => theme.textMuted};
    line-height: 1.8;
  }
`;

const SpinnerSlot = styled.div`
  height: 52px;
  display: flex;
  align-items: center;
  justify-content: center;
`;

const noop = () => undefined;

/**
 * Sign-in page (only unknown): the same choices as the login modal. The X button runs the
 * login flow of spec section 4 (redirect; the local consent form in local mode); `next` is the
 * follow-up path, followed only when it is a path of this site.
 */
export default function SignIn() {
  const router = useRouter();
  const next = safeRedirectPath(firstQueryValue(router.query.next));
  const { running, start } = useSocialLogin(noop, next);
  return (
    <RoutePage title="ログイン・新規登録" path="/signin" narrow gated>
      <Stack>
        <p>ユメキャストのご利用には、メールアドレスの登録が必要です。</p>
        {running ? (
          <SpinnerSlot>
            <Spinner size="normal" label="ログイン中" />
          </SpinnerSlot>
        ) : (
          <Button $variant="intense" $size="large" $block onClick={start} data-testid="social-login">
            X（Twitter）でログイン
          </Button>
        )}
        {!running && (
          <>
            <LinkButton href={next ? { pathname: '/email/login', query: { next } } : '/email/login'} $variant="normal" $size="large" $block>
              メールアドレスでログイン
            </LinkButton>
            <Link href="/email/signup">メールアドレスで新規登録</Link>
          </>
        )}
        <p>
          登録することで、<Link href="/terms">利用規約</Link>と<Link href="/privacy">プライバシーポリシー</Link>に同意したものとみなします。
          ユメキャストが許可なくSNSへ投稿することはありません。
        </p>
      </Stack>
    </RoutePage>
  );
}
