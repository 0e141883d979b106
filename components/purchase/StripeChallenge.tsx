/**
 * The 3-D Secure step when the api runs the `stripe` processor (`action.kind ===
 * 'stripe_confirm_payment'`, the first invoice's PaymentIntent): Stripe.js is loaded here only
 * (lib/purchase/stripe.ts, `import()`) and `stripe.handleNextAction({ clientSecret })` shows the
 * card issuer's check in Stripe's dialog. Its end is reported as the sandbox challenge's
 * `authentication_finished` is; the page then asks the api to confirm (POST
 * /v1/purchase/confirm), which reads the processor again: the browser's word decides nothing.
 *
 * handleNextAction runs once per client secret (React's strict mode mounts twice in
 * development). A Stripe.js that cannot load, or is still loading after a while (it may hang
 * rather than fail), gets a Japanese message and a retry (./FormLoading.tsx); nothing is charged
 * until the check is done.
 */
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '@/components/ui/Spinner';
import { STRIPE_CHALLENGE_LOAD_FAILED_MESSAGE } from '@/lib/purchase/format';
import { challengeOutcome, loadStripeJs, STRIPE_READY_TIMEOUT_MS } from '@/lib/purchase/stripe';
import { LoadProblem, useSlowLoad } from './FormLoading';

type Phase = 'loading' | 'authenticating' | 'failed';

interface Props {
  publishableKey: string;
  clientSecret: string;
  onFinished: (status: 'succeeded' | 'requires_payment_method', message: string | null) => void;
}

export function StripeChallenge({ publishableKey, clientSecret, onFinished }: Props) {
  const [phase, setPhase] = useState<Phase>('loading');
  const [attempt, setAttempt] = useState(0);
  // Stripe.js may hang rather than fail: after a while, offer to load it again.
  const slow = useSlowLoad(phase === 'loading', attempt, STRIPE_READY_TIMEOUT_MS);
  const alive = useRef(false);
  const current = useRef<string | null>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    const run = `${clientSecret}#${attempt}`;
    if (current.current === run) return;
    current.current = run;
    const live = () => alive.current && current.current === run;
    void (async () => {
      let stripe;
      try {
        if (!clientSecret) throw new Error('no client secret');
        stripe = await loadStripeJs(publishableKey);
      } catch {
        if (live()) setPhase('failed');
        return;
      }
      if (!live()) return;
      setPhase('authenticating');
      let outcome: ReturnType<typeof challengeOutcome>;
      try {
        outcome = challengeOutcome(await stripe.handleNextAction({ clientSecret }));
      } catch {
        outcome = { status: 'requires_payment_method', message: null };
      }
      if (live()) finished.current(outcome.status, outcome.message);
    })();
  }, [publishableKey, clientSecret, attempt]);

  if (phase === 'failed' || slow) {
    return (
      <LoadProblem
        testId="stripe-challenge-error"
        retryTestId="stripe-challenge-retry"
        onRetry={() => {
          setPhase('loading');
          setAttempt((n) => n + 1);
        }}
      >
        {STRIPE_CHALLENGE_LOAD_FAILED_MESSAGE}
      </LoadProblem>
    );
  }
  const label = phase === 'loading' ? '本人認証の画面を読み込んでいます…' : 'カード発行会社の認証画面で、案内に従って認証してください…';
  return (
    <p data-testid="stripe-challenge" data-state={phase} aria-live="polite">
      <Spinner size="small" label={label} /> {label}
    </p>
  );
}
