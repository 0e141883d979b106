/**
 * /purchase/register-card's content (issue 9 §3.3): the processor's card form in an iframe,
 * the final confirmation and its pay button, the 3-D Secure challenge when the card asks for it,
 * then the result. Every wait shows progress; every failure its Japanese message, with the card
 * form again when a card or payment was refused. The steps are lib/purchase/usePurchaseFlow.
 */
import Link from 'next/link';
import { Button, ButtonLink } from '@/components/ui/Button';
import { LoadingBlock } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import type { CardSetup } from '@/lib/api/purchase';
import type { HostedMessage } from '@/lib/purchase/hostedMessages';
import { formatPlanDate, priceLabel, UNSUPPORTED_PROCESSOR_MESSAGE } from '@/lib/purchase/format';
import { SETTINGS_PURCHASE_PATH, UPGRADE_PATH } from '@/lib/purchase/paths';
import { usePurchaseFlow } from '@/lib/purchase/usePurchaseFlow';
import { HostedFrame } from './HostedFrame';
import { PayReview } from './PayReview';
import { PurchaseSuccess } from './PurchaseSuccess';
import { PurchaseSteps } from './PurchaseSteps';

function CardForm({ setup, onMessage }: { setup: CardSetup; onMessage: (m: HostedMessage) => void }) {
  if (setup.mount.kind !== 'sandbox_iframe') {
    return (
      <FormMessage $kind="error" role="alert" data-testid="card-form-unsupported">
        {UNSUPPORTED_PROCESSOR_MESSAGE}
      </FormMessage>
    );
  }
  return (
    <HostedFrame
      key={setup.setupId}
      url={setup.mount.url}
      origin={setup.mount.origin}
      title="カード情報の入力フォーム"
      loadingLabel="カード入力フォームを読み込んでいます…"
      initialHeight={440}
      onMessage={onMessage}
      testId="card-frame"
    />
  );
}

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
            onMessage={(m) => {
              if (m.type === 'card_setup_succeeded' && m.setupIntentId === step.setup.setupId) flow.cardSaved(step.setup, m.paymentMethod);
              if (m.type === 'card_setup_failed') flow.cardRefused(m.error.message);
            }}
          />
        </>
      )}
      {(step.kind === 'review' || step.kind === 'paying') && plan && (
        <PayReview plan={plan} card={step.card} paying={step.kind === 'paying'} onPay={() => void flow.pay()} onChangeCard={flow.changeCardBeforePaying} />
      )}
      {step.kind === 'challenge' && (
        <section data-testid="challenge-step" aria-label="本人認証">
          <p>カード発行会社による本人認証（3-Dセキュア）が必要です。画面の案内に従って認証してください。</p>
          {step.action.kind === 'sandbox_challenge' ? (
            <HostedFrame
              url={step.action.url}
              origin={step.action.origin}
              title="本人認証（3-Dセキュア）"
              loadingLabel="本人認証の画面を読み込んでいます…"
              initialHeight={520}
              readyOnLoad
              onMessage={(m) => {
                if (m.type === 'authentication_finished') void flow.challengeFinished(m.status, m.error?.message ?? null);
              }}
              testId="challenge-frame"
            />
          ) : (
            <FormMessage $kind="error" role="alert">
              {UNSUPPORTED_PROCESSOR_MESSAGE}
            </FormMessage>
          )}
        </section>
      )}
      {step.kind === 'confirming' && <LoadingBlock label="お支払いを確認しています…" />}
      {step.kind === 'card' && (
        <ButtonLink as={Link} href={UPGRADE_PATH} $variant="text">
          プランのページに戻る
        </ButtonLink>
      )}
    </div>
  );
}
