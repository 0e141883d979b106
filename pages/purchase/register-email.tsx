/**
 * /purchase/register-email (only verified; spec sections 2 and 7, issue 9 §3.2): the e-mail
 * used for purchase. An account with a confirmed address registers it as the billing e-mail
 * with the payment processor (callable `payment-invokePaymentRequest`, components/purchase/
 * BillingEmailStep) and goes on to the card. An account without one (e.g. X only) gets a
 * sign-in link, which returns to /purchase/link-callback and links the address to the account
 * (uid kept); the card step then creates the processor's customer with it.
 */
import { useState } from 'react';
import { useRouter } from 'next/router';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmailPasswordForm } from '@/components/form/EmailPasswordForm';
import { FormMessage } from '@/components/form/Field';
import { MailboxHint } from '@/components/form/MailboxHint';
import { BillingEmailStep } from '@/components/purchase/BillingEmailStep';
import { PurchaseLegalLinks } from '@/components/purchase/PurchaseLegalLinks';
import { PurchaseSteps } from '@/components/purchase/PurchaseSteps';
import { sendSignInLink } from '@/lib/auth/emailLink';
import { planIdFrom, REGISTER_CARD_PATH, withPlan } from '@/lib/purchase/paths';
import { useAppSelector } from '@/store/hooks';

const NEXT = REGISTER_CARD_PATH;

export default function RegisterEmail() {
  const router = useRouter();
  const user = useAppSelector((s) => s.user.user);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const planId = planIdFrom(router.query.plan);
  const hasAddress = !!user && !user.isAnonymous && !!user.email && user.emailVerified;
  return (
    <RoutePage title="お支払い用メールアドレスの登録" path="/purchase/register-email" narrow gated>
      <PurchaseSteps current={0} />
      {hasAddress ? (
        <BillingEmailStep email={user.email} onRegistered={() => void router.push(withPlan(REGISTER_CARD_PATH, planId))} />
      ) : sentTo ? (
        <FormMessage data-testid="link-sent">
          {sentTo} にログイン用リンクを送信しました。この端末・このブラウザでメール内のリンクを開くと、アドレスの登録が完了します。
          <MailboxHint email={sentTo} />
        </FormMessage>
      ) : (
        <>
          <p>領収書やプランの更新のお知らせを受け取るメールアドレスを登録してください。確認のため、ログイン用リンクをお送りします。</p>
          <EmailPasswordForm
            withPassword={false}
            submitLabel="確認メールを送る"
            onSubmit={(email) => sendSignInLink(email, withPlan(NEXT, planId))}
            onSuccess={(email) => setSentTo(email)}
          />
        </>
      )}
      <PurchaseLegalLinks />
    </RoutePage>
  );
}
