/**
 * Stripe's card form for a card setup whose mount is `stripe_payment_element` (the api runs the
 * `stripe` processor): Stripe.js is loaded only here (lib/purchase/stripe.ts, `import()`), the
 * Payment Element is mounted for the SetupIntent's client secret in Japanese and our theme, and
 * our own button calls `stripe.confirmSetup({ elements, redirect: 'if_required' })` (a 3-D
 * Secure check while saving shows as Stripe's dialog). The card number is typed into Stripe's
 * iframes and never passes through our page.
 *
 * A saved card is reported as the sandbox's `card_setup_succeeded` is (setup id, payment method
 * id, the card when known); a refused one as its `card_setup_failed` (Stripe's own Japanese
 * message for card and validation errors, ours for the rest) and the form stays for another
 * card. Progress while Stripe.js loads; a Stripe.js that cannot load (offline, blocked) or a
 * form that never gets ready shows a Japanese message and a way to load it again
 * (./FormLoading.tsx, as the sandbox's frame).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import styled, { useTheme } from 'styled-components';
import type { Stripe, StripeElements, StripePaymentElement } from '@stripe/stripe-js';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { CARD_SETUP_FAILED_MESSAGE, STRIPE_LOAD_FAILED_MESSAGE } from '@/lib/purchase/format';
import {
  loadStripeJs,
  setupOutcome,
  stripeAppearance,
  STRIPE_LOCALE,
  STRIPE_READY_TIMEOUT_MS,
  type StripeCardSaved,
  type StripeSetupOutcome,
} from '@/lib/purchase/stripe';
import { FormWaiting, LoadProblem, useSlowLoad } from './FormLoading';

const Wrap = styled.form`
  margin: 0 0 16px;
  .mount {
    position: relative;
    min-height: 220px;
    margin: 0 0 16px;
  }
`;

type Phase = 'loading' | 'ready' | 'failed';

interface Props {
  publishableKey: string;
  clientSecret: string;
  onSaved: (saved: StripeCardSaved) => void;
  onFailed: (message: string) => void;
  submitLabel?: string;
}

export function StripeCardForm({ publishableKey, clientSecret, onSaved, onFailed, submitLabel = 'このカードを登録する' }: Props) {
  const theme = useTheme();
  const appearance = stripeAppearance(theme);
  const mountPoint = useRef<HTMLDivElement>(null);
  const stripe = useRef<Stripe | null>(null);
  const elements = useRef<StripeElements | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [attempt, setAttempt] = useState(0);
  const slow = useSlowLoad(phase === 'loading', attempt, STRIPE_READY_TIMEOUT_MS);
  const [submitting, setSubmitting] = useState(false);
  const submitLock = useRef(false);
  const alive = useRef(false);
  const latest = useRef({ onSaved, onFailed, appearance });
  useEffect(() => {
    latest.current = { onSaved, onFailed, appearance };
  });

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  // Load Stripe.js, mount the Payment Element; again for each retry.
  useEffect(() => {
    let cancelled = false;
    let element: StripePaymentElement | null = null;
    const fail = () => {
      if (!cancelled) setPhase('failed');
    };
    loadStripeJs(publishableKey)
      .then((s) => {
        if (cancelled || !mountPoint.current) return;
        if (!clientSecret) throw new Error('no client secret');
        const els = s.elements({ clientSecret, locale: STRIPE_LOCALE, appearance: latest.current.appearance });
        const payment = els.create('payment', { layout: 'tabs' });
        element = payment;
        payment.on('ready', () => {
          if (!cancelled) setPhase('ready');
        });
        payment.on('loaderror', fail);
        payment.mount(mountPoint.current);
        stripe.current = s;
        elements.current = els;
      })
      .catch(fail);
    return () => {
      cancelled = true;
      element?.destroy();
      stripe.current = null;
      elements.current = null;
    };
  }, [publishableKey, clientSecret, attempt]);

  // The theme switch restyles the form in place (the typed card stays).
  useEffect(() => {
    void elements.current?.update({ appearance: latest.current.appearance });
  }, [theme.name]);

  function retry() {
    setPhase('loading');
    setAttempt((n) => n + 1);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const s = stripe.current;
    const els = elements.current;
    if (submitLock.current || phase !== 'ready' || !s || !els) return;
    submitLock.current = true;
    setSubmitting(true);
    let outcome: StripeSetupOutcome;
    try {
      outcome = setupOutcome(await s.confirmSetup({ elements: els, redirect: 'if_required' }));
    } catch {
      outcome = { kind: 'failed', message: CARD_SETUP_FAILED_MESSAGE };
    }
    submitLock.current = false;
    if (!alive.current) return;
    setSubmitting(false);
    if (outcome.kind === 'saved') latest.current.onSaved(outcome.saved);
    else latest.current.onFailed(outcome.message);
  }

  return (
    <Wrap onSubmit={(e) => void submit(e)} data-testid="stripe-card-form" data-state={phase} noValidate>
      {phase === 'failed' && (
        <LoadProblem testId="stripe-load-error" retryTestId="stripe-retry" onRetry={retry}>
          {STRIPE_LOAD_FAILED_MESSAGE}
        </LoadProblem>
      )}
      {slow && (
        <LoadProblem testId="stripe-slow" retryTestId="stripe-retry" onRetry={retry}>
          カード入力フォームの読み込みに時間がかかっています。通信環境を確認して、もう一度お試しください。
        </LoadProblem>
      )}
      <div className="mount" hidden={phase === 'failed'}>
        <div ref={mountPoint} data-testid="stripe-payment-element" />
        {phase === 'loading' && <FormWaiting label="カード入力フォームを読み込んでいます…" />}
      </div>
      {phase !== 'failed' && (
        <Button type="submit" $variant="primary" $block disabled={phase !== 'ready' || submitting} aria-busy={submitting} data-testid="stripe-card-submit">
          {submitting ? (
            <>
              <Spinner size="small" label="カードを確認しています" /> カードを確認しています…
            </>
          ) : (
            submitLabel
          )}
        </Button>
      )}
    </Wrap>
  );
}
