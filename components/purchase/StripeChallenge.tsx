/**
 * The 3-D Secure step when the api runs the `stripe` processor (`action.kind ===
 * 'stripe_confirm_payment'`, the first invoice's PaymentIntent): Stripe.js is loaded here only
 * (lib/purchase/stripe.ts, `import()`) and `stripe.handleNextAction({ clientSecret })` shows the
 * card issuer's check in Stripe's dialog. Its end is reported as the sandbox challenge's
 * `authentication_finished` is; the page then asks the api to confirm (POST
 * /v1/purchase/confirm), which reads the processor again: the browser's word decides nothing.
 *
 * handleNextAction runs once per client secret (React's strict mode mounts twice in
 * development). A Stripe.js that cannot load gets a Japanese message and a retry; nothing is
 * charged until the check is done.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { STRIPE_CHALLENGE_LOAD_FAILED_MESSAGE } from '@/lib/purchase/format';
import { challengeOutcome, loadStripeJs, STRIPE_READY_TIMEOUT_MS } from '@/lib/purchase/stripe';

type Phase = 'loading' | 'authenticating' | 'failed';

interface Props {
  publishableKey: string;
  clientSecret: string;
  onFinished: (status: 'succeeded' | 'requires_payment_method', message: string | null) => void;
}

export function StripeChallenge({ publishableKey, clientSecret, onFinished }: Props) {
  const [phase, setPhase] = useState<Phase>('loading');
  const [attempt, setAttempt] = useState(0);
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
    // Stripe.js may hang rather than fail: after a while, offer to load it again.
    const timer = setTimeout(() => {
      if (live()) setPhase((p) => (p === 'loading' ? 'failed' : p));
    }, STRIPE_READY_TIMEOUT_MS);
    void (async () => {
      let stripe;
      try {
        if (!clientSecret) throw new Error('no client secret');
        stripe = await loadStripeJs(publishableKey);
      } catch {
        clearTimeout(timer);
        if (live()) setPhase('failed');
        return;
      }
      clearTimeout(timer);
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

  if (phase === 'failed') {
    return (
      <FormMessage $kind="error" role="alert" data-testid="stripe-challenge-error">
        {STRIPE_CHALLENGE_LOAD_FAILED_MESSAGE}
        <br />
        <Button
          $variant="normal"
          onClick={() => {
            setPhase('loading');
            setAttempt((n) => n + 1);
          }}
          data-testid="stripe-challenge-retry"
        >
          もう一度読み込む
        </Button>
      </FormMessage>
    );
  }
  const label = phase === 'loading' ? '本人認証の画面を読み込んでいます…' : 'カード発行会社の認証画面で、案内に従って認証してください…';
  return (
    <p data-testid="stripe-challenge" data-state={phase} aria-live="polite">
      <Spinner size="small" label={label} /> {label}
    </p>
  );
}
