/**
 * What every processor form on the purchase pages shows while it loads (the sandbox's iframes in
 * HostedFrame, Stripe's Payment Element in StripeCardForm, Stripe.js for 3-D Secure in
 * StripeChallenge), written once:
 *
 * - `useSlowLoad`: true once a load has taken longer than its time limit; false again as soon as
 *   it is no longer loading or a new attempt starts (derived, so nothing has to reset it).
 * - `FormWaiting`: the spinner and label laid over the form's place while it loads.
 * - `LoadProblem`: a Japanese message that the form did not come, with a button to load it again.
 */
import { useEffect, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';

/** True while `loading` has lasted `ms` in this `attempt` (a new attempt starts the clock again). */
export function useSlowLoad(loading: boolean, attempt: number, ms: number): boolean {
  const [slowAttempt, setSlowAttempt] = useState<number | null>(null);
  useEffect(() => {
    if (!loading) return;
    const timer = setTimeout(() => setSlowAttempt(attempt), ms);
    return () => clearTimeout(timer);
  }, [loading, attempt, ms]);
  return loading && slowAttempt === attempt;
}

const Overlay = styled.div<{ $opaque?: boolean }>`
  position: absolute;
  inset: 0;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 10px;
  ${({ $opaque, theme }) => ($opaque ? `background: ${theme.surface};` : '')}
  color: ${({ theme }) => theme.textMuted};
`;

/** The spinner over a loading form (its container is `position: relative`); `opaque` hides what is behind. */
export function FormWaiting({ label, opaque = false }: { label: string; opaque?: boolean }) {
  return (
    <Overlay $opaque={opaque} aria-live="polite">
      <Spinner label={label} />
      <span>{label}</span>
    </Overlay>
  );
}

interface LoadProblemProps {
  children: ReactNode;
  onRetry: () => void;
  testId: string;
  retryTestId?: string;
}

/** The form did not load (or is taking too long): what happened, and 「もう一度読み込む」. */
export function LoadProblem({ children, onRetry, testId, retryTestId }: LoadProblemProps) {
  return (
    <FormMessage $kind="error" role="alert" data-testid={testId}>
      {children}
      <br />
      <Button $variant="normal" onClick={onRetry} data-testid={retryTestId}>
        もう一度読み込む
      </Button>
    </FormMessage>
  );
}
