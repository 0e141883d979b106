import { useState } from 'react';
import Link from 'next/link';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { ButtonLink } from '@/components/ui/Button';
import { sendSignInLink } from '@/lib/auth/emailLink';
import { useAppSelector } from '@/store/hooks';

const NEXT = '/purchase/register-card';

/**
 * The e-mail used for purchase (spec section 7): an account with a confirmed address goes on;
 * an account without one (e.g. X only) gets a sign-in link, which returns to
 * /purchase/link-callback and links the address to the account (uid kept).
 */
export default function RegisterEmail() {
  const user = useAppSelector((s) => s.user.user);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const hasAddress = !!user && !user.isAnonymous && !!user.email && user.emailVerified;
  return (
    <RoutePage title="お支払い用メールアドレスの登録" path="/purchase/register-email" narrow gated>
      {hasAddress ? (
        <>
          <p>領収書やプランの更新のお知らせは、次のアドレスにお送りします。</p>
          <p data-testid="purchase-email">{user.email}</p>
          <ButtonLink as={Link} href={NEXT} $variant="primary" $block>
            このアドレスで続ける
          </ButtonLink>
          <p>
            アドレスを変更する場合は <Link href="/settings/email">メールアドレスの変更</Link> から行ってください。
          </p>
        </>
      ) : sentTo ? (
        <FormMessage data-testid="link-sent">
          {sentTo} にログイン用リンクを送信しました。この端末・このブラウザでメール内のリンクを開くと、アドレスの登録が完了します。
          <MailboxHint email={sentTo} />
        </FormMessage>
      ) : (
        <>
          <p>領収書やプランの更新のお知らせを受け取るメールアドレスを登録してください。確認のため、ログイン用リンクをお送りします。</p>
          <EmailPasswordForm withPassword={false} submitLabel="確認メールを送る" onSubmit={(email) => sendSignInLink(email, NEXT)} onSuccess={(email) => setSentTo(email)} />
        </>
      )}
    </RoutePage>
  );
}
