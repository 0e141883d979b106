/**
 * /settings/account: the account's facts (name, e-mail, sign-in methods, X link, registration
 * day, premium plan via lib/purchase/plan, uid), the display-name form and the X link button.
 */
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { Section, SectionTitle } from '@/components/ui/Page';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { Field, FormMessage } from '@/components/form/Field';
import { AuthError } from '@/components/form/AuthError';
import { updateUserProfile } from '@/lib/auth/emailAuth';
import { startRedirect } from '@/lib/auth/social';
import { errorCodeOf } from '@/lib/auth/errors';
import { validateDisplayName } from '@/lib/auth/validation';
import { planStatus } from '@/lib/purchase/plan';
import { useAppSelector } from '@/store/hooks';

const Table = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 10px 20px;
  dt {
    color: ${({ theme }) => theme.textMuted};
  }
  dd {
    margin: 0;
    word-break: break-all;
  }
`;

const METHOD_LABELS: Record<string, string> = {
  password: 'メールアドレスとパスワード',
  emailLink: 'メールのログイン用リンク',
  'twitter.com': 'X（Twitter）',
};

function formatDate(unixSeconds: number | null): string {
  if (!unixSeconds) return '—';
  return new Date(unixSeconds * 1000).toLocaleDateString('ja-JP', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** Profile update (spec section 5): the display name is set only when one is given. */
function DisplayNameForm({ current }: { current: string }) {
  const [name, setName] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const v = validateDisplayName(name);
    setError(v);
    setSaved(false);
    setFailure(null);
    if (v) return;
    setBusy(true);
    const r = await updateUserProfile({ displayName: name });
    setBusy(false);
    if (r.result) setSaved(true);
    else setFailure(r.code);
  }
  return (
    <form onSubmit={submit} noValidate>
      <AuthError code={failure} />
      {saved && <FormMessage data-testid="name-saved">表示名を変更しました。</FormMessage>}
      <Field label="表示名" name="display-name" autoComplete="nickname" value={name} onChange={(e) => setName(e.target.value)} error={error} />
      <Button type="submit" $variant="normal" disabled={busy}>
        {busy ? <Spinner size="small" label="保存中" /> : '表示名を保存'}
      </Button>
    </form>
  );
}

function LinkTwitter() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <>
      <AuthError code={failure} />
      <Button
        $variant="intense"
        disabled={busy}
        data-testid="link-twitter"
        onClick={async () => {
          setBusy(true);
          setFailure(null);
          try {
            await startRedirect('link');
          } catch (e) {
            setFailure(errorCodeOf(e));
            setBusy(false);
          }
        }}
      >
        {busy ? <Spinner size="small" label="移動中" /> : 'X（Twitter）と連携する'}
      </Button>
    </>
  );
}

export default function Account() {
  const user = useAppSelector((s) => s.user.user);
  return (
    <RoutePage title="アカウント情報" path="/settings/account" narrow gated>
      {user && (
        <>
          <Section>
            <Table data-testid="account-info">
              <dt>表示名</dt>
              <dd data-testid="account-name">{user.name}</dd>
              <dt>メールアドレス</dt>
              <dd data-testid="account-email">{user.email || '未登録'}</dd>
              <dt>メール確認</dt>
              <dd>{user.email ? (user.emailVerified ? '確認済み' : '未確認') : '—'}</dd>
              <dt>ログイン方法</dt>
              <dd data-testid="account-methods">{user.signInMethods.map((m) => METHOD_LABELS[m] ?? m).join('、') || '—'}</dd>
              <dt>X（Twitter）連携</dt>
              <dd data-testid="account-twitter">{user.canTwitterLoggedIn ? '連携済み' : '未連携'}</dd>
              <dt>登録日</dt>
              <dd>{formatDate(user.createdAt)}</dd>
              <dt>プレミアムプラン</dt>
              <dd data-testid="account-plan">{planStatus(user.paymentExpirationTime).label}</dd>
              <dt>ユーザーID</dt>
              <dd data-testid="account-uid">{user.uid}</dd>
            </Table>
          </Section>
          <Section>
            <SectionTitle>表示名の変更</SectionTitle>
            <DisplayNameForm current={user.name === user.email ? '' : user.name} />
          </Section>
          {!user.canTwitterLoggedIn && (
            <Section>
              <SectionTitle>X（Twitter）連携</SectionTitle>
              <p>連携すると、X（Twitter）のアカウントでもログインできます。ユメキャストが許可なく投稿することはありません。</p>
              <LinkTwitter />
            </Section>
          )}
        </>
      )}
    </RoutePage>
  );
}
