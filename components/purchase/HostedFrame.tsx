/**
 * The payment processor's pages on our purchase pages (issue 9 §5: the card number never passes
 * through our page), and the one place that picks them by what the api named:
 *
 * - `CardForm`: the card form of a card setup — the sandbox's page in an iframe
 *   (`sandbox_iframe`) or Stripe's Payment Element (`stripe_payment_element`, StripeCardForm);
 *   used by /purchase/register-card (CardPurchase) and "change card" (ChangeCard).
 * - `PaymentChallenge`: the 3-D Secure step — the sandbox's challenge page in an iframe
 *   (`sandbox_challenge`) or Stripe.js handleNextAction (`stripe_confirm_payment`, StripeChallenge).
 * - `HostedFrame`: one sandbox page in an iframe. Its results come by postMessage: only messages
 *   from `origin` (named by our api) and from this very frame are taken
 *   (lib/purchase/hostedMessages.ts); everything else on the window is ignored. A spinner shows
 *   until the page says it is ready; a page that never answers gets a Japanese message and a
 *   way to load it again (./FormLoading.tsx, as Stripe's forms).
 *
 * Stripe.js is loaded only when a Stripe mount is given (lib/purchase/stripe.ts, `import()`).
 */
import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { CARD_SETUP_FAILED_MESSAGE } from '@/lib/purchase/format';
import type { CardSetup, PaymentAction } from '@/lib/api/purchase';
import { parseHostedMessage, type HostedMessage, type SavedCard } from '@/lib/purchase/hostedMessages';
import { FormWaiting, LoadProblem, useSlowLoad } from './FormLoading';
import { StripeCardForm } from './StripeCardForm';
import { StripeChallenge } from './StripeChallenge';

const Wrap = styled.div`
  position: relative;
  border-radius: 12px;
  overflow: hidden;
  background: #fff;
  margin: 0 0 16px;
  iframe {
    display: block;
    width: 100%;
    border: 0;
  }
`;

/** How long the hosted page may take to say it is ready before we say something is wrong. */
export const READY_TIMEOUT_MS = 20_000;

interface Props {
  url: string;
  origin: string;
  title: string;
  /** Shown while the page loads. */
  loadingLabel: string;
  initialHeight: number;
  onMessage: (message: HostedMessage) => void;
  /** The card form says `ready`; the challenge page does not, so its load event counts. */
  readyOnLoad?: boolean;
  testId?: string;
}

export function HostedFrame({ url, origin, title, loadingLabel, initialHeight, onMessage, readyOnLoad = false, testId }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(initialHeight);
  const [ready, setReady] = useState(false);
  const [reloads, setReloads] = useState(0);
  const slow = useSlowLoad(!ready, reloads, READY_TIMEOUT_MS);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  }, [onMessage]);

  useEffect(() => {
    function listen(event: MessageEvent) {
      if (frame.current && event.source !== frame.current.contentWindow) return;
      const message = parseHostedMessage(event.origin, event.data, origin);
      if (!message) return;
      if (message.type === 'ready') setReady(true);
      if (message.type === 'resize') setHeight(message.height);
      handler.current(message);
    }
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [origin]);

  return (
    <>
      {slow && (
        <LoadProblem testId="hosted-slow" onRetry={() => setReloads((n) => n + 1)}>
          フォームを読み込めませんでした。通信環境を確認して、もう一度お試しください。
        </LoadProblem>
      )}
      <Wrap style={{ height }} data-testid={testId} data-ready={ready ? 'true' : 'false'}>
        <iframe
          key={reloads}
          ref={frame}
          src={url}
          title={title}
          height={height}
          sandbox="allow-scripts allow-forms allow-same-origin"
          referrerPolicy="no-referrer"
          onLoad={() => {
            if (readyOnLoad) setReady(true);
          }}
        />
        {!ready && <FormWaiting label={loadingLabel} opaque />}
      </Wrap>
    </>
  );
}

interface CardFormProps {
  setup: CardSetup;
  /** The sandbox iframe's title and test id. */
  title: string;
  testId: string;
  /** The card of this setup was saved (brand and last 4 when the processor's page gave them). */
  onSaved: (card: SavedCard | null) => void;
  /** The card was refused: the processor's Japanese message; the form stays for another card. */
  onFailed: (message: string) => void;
  /** The label of Stripe's form's button (the sandbox's page has its own). */
  submitLabel?: string;
}

/** The processor's card form for a card setup, by `setup.mount.kind`. */
export function CardForm({ setup, title, testId, onSaved, onFailed, submitLabel }: CardFormProps) {
  const { mount } = setup;
  if (mount.kind === 'stripe_payment_element') {
    return (
      <StripeCardForm
        key={setup.setupId}
        publishableKey={mount.publishableKey}
        clientSecret={mount.clientSecret}
        onSaved={(saved) => (saved.setupIntentId === setup.setupId ? onSaved(saved.card) : onFailed(CARD_SETUP_FAILED_MESSAGE))}
        onFailed={onFailed}
        submitLabel={submitLabel}
      />
    );
  }
  return (
    <HostedFrame
      key={setup.setupId}
      url={mount.url}
      origin={mount.origin}
      title={title}
      loadingLabel="カード入力フォームを読み込んでいます…"
      initialHeight={440}
      testId={testId}
      onMessage={(m) => {
        if (m.type === 'card_setup_succeeded' && m.setupIntentId === setup.setupId) onSaved(m.paymentMethod);
        if (m.type === 'card_setup_failed') onFailed(m.error.message);
      }}
    />
  );
}

/** The 3-D Secure step of a payment, by `action.kind`; `onFinished` as the sandbox's `authentication_finished`. */
export function PaymentChallenge({
  action,
  onFinished,
}: {
  action: PaymentAction;
  onFinished: (status: 'succeeded' | 'requires_payment_method', message: string | null) => void;
}) {
  if (action.kind === 'stripe_confirm_payment') {
    return <StripeChallenge key={action.clientSecret} publishableKey={action.publishableKey} clientSecret={action.clientSecret} onFinished={onFinished} />;
  }
  return (
    <HostedFrame
      url={action.url}
      origin={action.origin}
      title="本人認証（3-Dセキュア）"
      loadingLabel="本人認証の画面を読み込んでいます…"
      initialHeight={520}
      readyOnLoad
      onMessage={(m) => {
        if (m.type === 'authentication_finished') onFinished(m.status, m.error?.message ?? null);
      }}
      testId="challenge-frame"
    />
  );
}
