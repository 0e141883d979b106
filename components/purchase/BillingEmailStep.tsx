/**
 * The billing e-mail step (issue 9 §3.2) for an account with a confirmed address: shows the
 * address and registers it with the payment processor through the callable function
 * `payment-invokePaymentRequest` ({method: 'updateEmail', requestId}). One requestId belongs to
 * this attempt and is reused when it is retried (lib/purchase/billingEmail BillingEmailAttempt);
 * the button is disabled while the call runs. On success the user goes on to the card.
 */
import { useRef, useState } from 'react';
import { Link } from '@/components/ui/Link';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { BillingEmailAttempt, BillingEmailError, billingEmailMessage } from '@/lib/purchase/billingEmail';

interface Props {
  email: string;
  onRegistered: () => void;
  /** Test seam: the attempt (its requestId and the call). */
  attempt?: BillingEmailAttempt;
}

export function BillingEmailStep({ email, onRegistered, attempt }: Props) {
  const current = useRef<BillingEmailAttempt | null>(attempt ?? null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);

  async function register() {
    if (running.current) return;
    running.current = true;
    current.current ??= new BillingEmailAttempt();
    setBusy(true);
    setError(null);
    try {
      await current.current.run();
      onRegistered();
    } catch (e) {
      setError(e instanceof BillingEmailError ? e.userMessage : billingEmailMessage('unknown'));
      setBusy(false);
      running.current = false;
    }
  }

  return (
    <section data-testid="billing-email-step">
      <p>領収書やプランの更新のお知らせは、次のメールアドレスにお送りします。</p>
      <p data-testid="purchase-email">
        <strong>{email}</strong>
      </p>
      {error && (
        <FormMessage $kind="error" role="alert" data-testid="billing-email-error">
          {error}
        </FormMessage>
      )}
      <Button $variant="primary" $size="large" $block onClick={() => void register()} disabled={busy} aria-busy={busy} data-testid="billing-email-submit">
        {busy ? (
          <>
            <Spinner size="small" label="メールアドレスを登録しています" /> メールアドレスを登録しています…
          </>
        ) : error ? (
          'もう一度試す'
        ) : (
          'このアドレスで続ける'
        )}
      </Button>
      <p>
        アドレスを変更する場合は <Link href="/settings/email">メールアドレスの変更</Link> から行ってください。
      </p>
    </section>
  );
}
