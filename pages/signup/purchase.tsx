/**
 * /signup/purchase (open; spec section 2, issue 9 §3.1): sign-up by purchase. A visitor gives
 * an e-mail address; the spec's sign-in link is sent (it returns to /purchase/link-callback,
 * which links the address to the visitor's account, uid kept) and the address is stored on this
 * device (the one local-storage key of the e-mail link). Then: "メールを確認してください", with
 * the local mailbox in local mode. A verified user goes straight on to the billing e-mail.
 */
import { useEffect, useState } from 'react';
import { Link } from '@/components/ui/Link';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { AuthGate } from '@/components/layout/GuardContext';
import { PurchaseLegalLinks } from '@/components/purchase/PurchaseLegalLinks';
import { PurchaseSteps } from '@/components/purchase/PurchaseSteps';
import { LoadingBlock } from '@/components/ui/Spinner';
import { Lead } from '@/components/ui/Page';
import { sendSignInLink } from '@/lib/auth/emailLink';
import { planIdFrom, REGISTER_EMAIL_PATH, withPlan } from '@/lib/purchase/paths';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';

export default function SignupPurchase() {
  const router = useRouter();
  const authState = useAppSelector(selectAuthState);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const next = withPlan(REGISTER_EMAIL_PATH, planIdFrom(router.query.plan));

  useEffect(() => {
    if (router.isReady && authState === 'verified' && !sentTo) void router.replace(next);
  }, [authState, next, router, sentTo]);

  return (
    <RoutePage title="プレミアムプランに登録" path="/signup/purchase" narrow>
      <AuthGate>
        <PurchaseSteps current={0} />
        {authState === 'verified' && !sentTo ? (
          <LoadingBlock label="ログイン済みです。次の手順へ進んでいます…" />
        ) : sentTo ? (
          <FormMessage data-testid="signup-purchase-sent">
            メールを確認してください。{sentTo} にログイン用リンクを送信しました。この端末・このブラウザでメール内のリンクを開くと、メールアドレスの登録が完了し、お支払いの手続きに進めます。
            <MailboxHint email={sentTo} />
          </FormMessage>
        ) : (
          <>
            <Lead>登録は3つのステップで完了します。まず、メールアドレスを入力してください。ログイン用のリンクをお送りします（パスワードは不要です）。</Lead>
            <EmailPasswordForm
              withPassword={false}
              submitLabel="ログイン用リンクを送る"
              onSubmit={(email) => sendSignInLink(email, next)}
              onSuccess={(email) => setSentTo(email)}
              footer={
                <p>
                  送信することで、<Link href="/terms">利用規約</Link>と<Link href="/privacy">プライバシーポリシー</Link>に同意したものとみなします。すでにアカウントをお持ちの方は{' '}
                  <Link href={`/email/login?next=${encodeURIComponent(next)}`}>ログイン</Link>してから登録してください。
                </p>
              }
            />
          </>
        )}
      </AuthGate>
      <PurchaseLegalLinks />
    </RoutePage>
  );
}
