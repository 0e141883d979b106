/**
 * /purchase/register-card's content (issue 9 §3.3): the processor's card form (the sandbox's
 * iframe or Stripe's Payment Element, picked by HostedFrame's CardForm), the final confirmation
 * and its pay button, the 3-D Secure step when the card asks for it (PaymentChallenge), then the
 * result. Every wait shows progress; every failure its Japanese message, with the card form
 * again when a card or payment was refused. The steps are lib/purchase/usePurchaseFlow.
 */
import { Link } from '@/components/ui/Link';
import { Button, LinkButton } from '@/components/ui/Button';
import { LoadingBlock } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { formatPlanDate, priceLabel } from '@/lib/purchase/format';
import { SETTINGS_PURCHASE_PATH, UPGRADE_PATH } from '@/lib/purchase/paths';
import { usePurchaseFlow } from '@/lib/purchase/usePurchaseFlow';
import { CardForm, PaymentChallenge } from './HostedFrame';
import { PayReview } from './PayReview';
import { PurchaseSuccess } from './PurchaseSuccess';
import { PurchaseSteps } from './PurchaseSteps';

export function CardPurchase({ planId }: { planId: string | null }) {
  const flow = usePurchaseFlow(planId);
  const { step, plan, error } = flow;

  const errorBox = error && (
    <FormMessage $kind="error" role="alert" data-testid="purchase-error">
      {error}
    </FormMessage>
  );

  if (step.kind === 'loading') return <LoadingBlock label="ご契約の準備をしています…" />;
  if (step.kind === 'load_failed') {
    return (
      <>
        <FormMessage $kind="error" role="alert" data-testid="purchase-error">
          {step.message}
        </FormMessage>
        <Button $variant="primary" $block onClick={flow.retry}>
          もう一度試す
        </Button>
      </>
    );
  }
  if (step.kind === 'subscribed') {
    return (
      <FormMessage data-testid="already-subscribed">
        すでに{step.subscription.plan.name}をご利用中です（{formatPlanDate(step.subscription.accessUntil ?? step.subscription.currentPeriodEnd)} まで）。
        <br />
        <Link href={SETTINGS_PURCHASE_PATH}>プランとお支払いを確認する</Link>
      </FormMessage>
    );
  }
  if (step.kind === 'done') {
    return (
      <>
        <PurchaseSteps current={2} />
        <PurchaseSuccess subscription={step.subscription} claim={step.claim} />
      </>
    );
  }

  return (
    <div data-testid="card-purchase" data-step={step.kind}>
      <PurchaseSteps current={1} />
      {plan && (
        <p data-testid="chosen-plan">
          お申し込みのプラン: <strong>{plan.name}</strong>（{priceLabel(plan)}） <Link href={UPGRADE_PATH}>プランを選び直す</Link>
        </p>
      )}
      {errorBox}
      {step.kind === 'setup' && <LoadingBlock label="カード入力フォームを準備しています…" />}
      {step.kind === 'card' && (
        <>
          <p>お支払いに使うクレジットカードを登録してください。カード情報は決済代行会社が直接受け取り、ユメキャストには保存されません。</p>
          <CardForm
            setup={step.setup}
            title="カード情報の入力フォーム"
            testId="card-frame"
            onSaved={(card) => flow.cardSaved(step.setup, card)}
            onFailed={flow.cardRefused}
          />
        </>
      )}
      {(step.kind === 'review' || step.kind === 'paying') && plan && (
        <PayReview plan={plan} card={step.card} paying={step.kind === 'paying'} onPay={() => void flow.pay()} onChangeCard={flow.changeCardBeforePaying} />
      )}
      {step.kind === 'challenge' && (
        <section data-testid="challenge-step" aria-label="本人認証">
          <p>カード発行会社による本人認証（3-Dセキュア）が必要です。画面の案内に従って認証してください。</p>
          <PaymentChallenge action={step.action} onFinished={(status, message) => void flow.challengeFinished(status, message)} />
        </section>
      )}
      {step.kind === 'confirming' && <LoadingBlock label="お支払いを確認しています…" />}
      {step.kind === 'card' && (
        <LinkButton href={UPGRADE_PATH} $variant="text">
          プランのページに戻る
        </LinkButton>
      )}
    </div>
  );
}
