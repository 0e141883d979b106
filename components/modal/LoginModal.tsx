/**
 * The login modal's body (spec sections 1, 2, 4): social login, the link to /email/login, the
 * e-mail registration notice and the terms and privacy links. Its heading names the dialog.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { useSocialLogin } from '@/lib/auth/useSocialLogin';
import type { ModalBodyProps } from './types';

const Wrap = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 16px;
  text-align: center;
  img {
    width: 140px;
    height: 30px;
  }
`;

const Heading = styled.h2`
  margin: 4px 0 0;
  font-size: 1.2rem;
`;

const Note = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.textMuted};
  line-height: 1.7;
`;

const SpinnerSlot = styled.div`
  height: 52px;
  display: flex;
  align-items: center;
`;

/**
 * Login modal (spec sections 1, 2, 4): a social login button, a link to /email/login,
 * the e-mail registration notice and links to the terms and privacy policy.
 * `href` is the follow-up of the login modal flow: the same-origin page to open after the
 * social login (by default the user stays where they were).
 */
export function LoginModal({ onClose, message, href, titleId }: ModalBodyProps) {
  const { running, start } = useSocialLogin(onClose, href);
  return (
    <Wrap data-testid="login-modal">
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src="/images/logo.png" alt="Yumecast" width={140} height={30} />
      <Heading id={titleId}>ログイン・新規登録</Heading>
      {message && <Note>{message}</Note>}
      <Note>ユメキャストのご利用には、メールアドレスの登録が必要です。</Note>
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
        <Link href={href ? { pathname: '/email/login', query: { next: href } } : '/email/login'} onClick={onClose} data-testid="email-login-link">
          メールアドレスでログイン・新規登録
        </Link>
      )}
      <Note>
        登録することで、<Link href="/terms" onClick={onClose}>利用規約</Link>と
        <Link href="/privacy" onClick={onClose}>プライバシーポリシー</Link>に同意したものとみなします。
        ユメキャストが許可なくSNSへ投稿することはありません。
      </Note>
    </Wrap>
  );
}
