import type { GetServerSideProps } from 'next';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { FormMessage } from '@/components/form/Field';
import { ButtonLink } from '@/components/ui/Button';
import { config, isLocalMode } from '@/lib/config';
import { mailsFromOobCodes, type Mail } from '@/lib/auth/mailbox';

interface Props {
  mails: Mail[];
  email: string | null;
  error: string | null;
}

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 16px;
`;

const Item = styled.li`
  border: 1px solid ${({ theme }) => theme.border};
  border-radius: 12px;
  padding: 16px;
  h2 {
    font-size: 1rem;
    margin: 0 0 4px;
  }
  .to {
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.85rem;
    margin: 0 0 12px;
    word-break: break-all;
  }
  p {
    line-height: 1.7;
  }
`;

/** Local mailbox: every mail the Auth emulator would have sent. Absent (404) outside local mode. */
export default function Mailbox({ mails, email, error }: Props) {
  return (
    <RoutePage title="ローカルメールボックス" path="/dev/mailbox" narrow>
      <p>
        ローカル環境専用のページです。Firebase Auth エミュレーターが送信したはずのメール（確認・ログイン用リンク・パスワード再設定・メールアドレス変更）を、新しい順に表示します。
        {email && (
          <>
            {' '}
            {email} 宛てのメールのみ表示しています（<Link href="/dev/mailbox">すべて表示</Link>）。
          </>
        )}
      </p>
      {error && (
        <FormMessage $kind="error" role="alert">
          {error}
        </FormMessage>
      )}
      {!error && mails.length === 0 && <p data-testid="mailbox-empty">メールはまだありません。</p>}
      <List data-testid="mailbox">
        {mails.map((m) => (
          <Item key={m.href} data-testid="mail" data-kind={m.kind} data-to={m.to}>
            <h2>{m.subject}</h2>
            <p className="to">宛先：{m.to}</p>
            <p>{m.body}</p>
            <ButtonLink href={m.href} $variant="primary" data-testid="mail-link">
              {m.buttonLabel}
            </ButtonLink>
          </Item>
        ))}
      </List>
    </RoutePage>
  );
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ query }) => {
  if (!isLocalMode) return { notFound: true };
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || config.firebase.authEmulatorHost;
  const project = process.env.FIREBASE_PROJECT_ID?.trim() || config.firebase.projectId;
  const email = typeof query.email === 'string' && query.email.length <= 320 ? query.email : null;
  try {
    const res = await fetch(`http://${host}/emulator/v1/projects/${encodeURIComponent(project)}/oobCodes`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const json = (await res.json()) as { oobCodes?: unknown };
    return { props: { mails: mailsFromOobCodes(json.oobCodes, config.siteUrl, config.firebase.apiKey, email), email, error: null } };
  } catch (e) {
    console.error('mailbox: cannot read the Auth emulator', e);
    return { props: { mails: [], email, error: 'Auth エミュレーターに接続できませんでした。npm start で起動しているか確認してください。' } };
  }
};
