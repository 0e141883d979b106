import { useEffect, useState, type FormEvent } from 'react';
import type { GetServerSideProps } from 'next';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { Field, FormMessage } from '@/components/form/Field';
import { AuthError } from '@/components/form/AuthError';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { isLocalMode } from '@/lib/config';
import { useRouter } from 'next/router';
import { approveLocalConsent, cancelLocalConsent, type RedirectPurpose } from '@/lib/auth/social';
import { validateDisplayName, validateEmail, validateScreenName } from '@/lib/auth/validation';
import { firebaseAuth } from '@/lib/firebase/client';

const Card = styled.div`
  border: 1px solid ${({ theme }) => theme.border};
  border-radius: 16px;
  padding: 20px;
  .brand {
    font-weight: 700;
    font-size: 1.1rem;
    margin: 0 0 8px;
  }
  ul {
    line-height: 1.8;
    padding-left: 1.2em;
  }
`;

const Buttons = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
`;

const PURPOSE_TEXT: Record<RedirectPurpose, string> = {
  login: 'ユメキャストにログインします。',
  link: 'ユメキャストのアカウントと連携します。',
  reauth: '安全のため、もう一度ログインします。連携済みのアカウントを入力してください。',
};

/**
 * Local stand-in for X's consent screen (local mode only; 404 otherwise). Step 3 of the login
 * modal flow lands here instead of x.com; "allow" signs in with an emulator credential for the
 * handle entered (the same handle is the same X account again) and goes back, as X would.
 */
export default function LocalXConsent() {
  const router = useRouter();
  // For the wording only: what is done is decided by the stored intent (lib/auth/social).
  const q = router.query.purpose;
  const purpose: RedirectPurpose = q === 'link' || q === 'reauth' ? q : 'login';
  const [screenName, setScreenName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Re-login or a second visit: suggest the handle already linked to this account.
    void firebaseAuth()
      .authStateReady()
      .then(() => {
        const linked = firebaseAuth().currentUser?.providerData.find((p) => p.providerId === 'twitter.com');
        if (linked?.uid.startsWith('local-x-')) {
          setScreenName((v) => v || linked.uid.slice('local-x-'.length));
          setName((v) => v || linked.displayName || '');
        }
      });
  }, []);

  async function approve(e: FormEvent) {
    e.preventDefault();
    const handle = screenName.trim().replace(/^@/, '');
    const next = {
      screenName: validateScreenName(handle),
      name: validateDisplayName(name || handle),
      email: email.trim() ? validateEmail(email) : null,
    };
    setErrors(next);
    setFailure(null);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    const { returnTo, outcome } = await approveLocalConsent({ screenName: handle, name: (name || handle).trim(), email: email.trim() || undefined });
    if (!outcome.ok && purpose !== 'login') {
      // Re-login and linking show their failure here; a login failure goes back (spec step 6).
      setFailure(outcome.code);
      setBusy(false);
      return;
    }
    window.location.replace(returnTo);
  }

  function cancel() {
    window.location.replace(cancelLocalConsent());
  }

  return (
    <RoutePage title="X（Twitter）でログイン" path="/dev/x-consent" narrow>
      <FormMessage>ローカル環境専用の画面です。本番環境では、ここで X（Twitter）の認証画面が表示されます。</FormMessage>
      <Card data-testid="x-consent">
        <p className="brand">ユメキャスト があなたのアカウントへのアクセスを求めています</p>
        <p>{PURPOSE_TEXT[purpose]}</p>
        <ul>
          <li>プロフィール情報（名前・ユーザー名）を参照します。</li>
          <li>許可なく投稿することはありません。</li>
        </ul>
        <form onSubmit={approve} noValidate>
          <AuthError code={failure} />
          <Field label="ユーザー名（@なし）" name="screen-name" autoComplete="username" value={screenName} onChange={(e) => setScreenName(e.target.value)} error={errors.screenName} />
          <Field label="名前" name="name" autoComplete="name" placeholder="未入力ならユーザー名" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
          <Field label="メールアドレス（任意）" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
          <Buttons>
            <Button type="submit" $variant="intense" $size="large" $block disabled={busy} data-testid="x-consent-allow">
              {busy ? <Spinner size="small" label="認証中" /> : '連携アプリを認証'}
            </Button>
            <Button type="button" $variant="text" $block disabled={busy} onClick={cancel} data-testid="x-consent-cancel">
              キャンセル
            </Button>
          </Buttons>
        </form>
      </Card>
    </RoutePage>
  );
}

export const getServerSideProps: GetServerSideProps = async () => (isLocalMode ? { props: {} } : { notFound: true });
