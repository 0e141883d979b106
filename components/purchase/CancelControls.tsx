/**
 * Cancel at period end and resume on /settings/purchase (issue 9 §3.4). Cancelling asks first
 * (a confirmation dialog that says until when the plan stays usable); resuming undoes it before
 * the period end. Each button is disabled while its call runs; failures get their Japanese
 * message. The caller gets the subscription as it is after the change.
 */
import { useRef, useState } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Panel';
import { Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { ApiClientError, messageFor } from '@/lib/api/client';
import { cancelSubscription, resumeSubscription, type Subscription } from '@/lib/api/purchase';
import { formatPlanDate } from '@/lib/purchase/format';
import { canCancel, canResume } from '@/lib/purchase/status';

const Dialog = styled(Callout)`
  background: ${({ theme }) => theme.surfaceRaised};
  p {
    margin: 0 0 12px;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 10px;
  }
`;

const messageOf = (e: unknown) => (e instanceof ApiClientError ? e.userMessage : messageFor('unexpected'));

interface Props {
  subscription: Subscription;
  onChanged: (s: Subscription) => void;
}

export function CancelControls({ subscription, onChanged }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState<'cancel' | 'resume' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const end = formatPlanDate(subscription.accessUntil ?? subscription.currentPeriodEnd);

  async function run(kind: 'cancel' | 'resume') {
    if (running.current) return;
    running.current = true;
    setBusy(kind);
    setError(null);
    try {
      onChanged(kind === 'cancel' ? await cancelSubscription() : await resumeSubscription());
      setAsking(false);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      running.current = false;
      setBusy(null);
    }
  }

  return (
    <div data-testid="cancel-controls">
      {error && (
        <FormMessage $kind="error" role="alert" data-testid="cancel-error">
          {error}
        </FormMessage>
      )}
      {canCancel(subscription) &&
        (asking ? (
          <Dialog $tone="destructive" role="alertdialog" aria-modal="false" aria-labelledby="cancel-title" data-testid="cancel-dialog">
            <p id="cancel-title">
              <strong>プランを解約しますか？</strong>
            </p>
            <p>解約すると次回の自動更新が止まり、これ以上の請求はありません。{end} まではこれまでどおりご利用いただけます。</p>
            <div className="buttons">
              <Button $variant="destructive" onClick={() => void run('cancel')} disabled={busy !== null} data-testid="cancel-confirm">
                {busy === 'cancel' ? (
                  <>
                    <Spinner size="small" label="解約しています" /> 解約しています…
                  </>
                ) : (
                  '解約する'
                )}
              </Button>
              <Button $variant="normal" onClick={() => setAsking(false)} disabled={busy !== null} data-testid="cancel-keep">
                解約しない
              </Button>
            </div>
          </Dialog>
        ) : (
          <Button $variant="text-attention" onClick={() => setAsking(true)} data-testid="cancel-open">
            プランを解約する
          </Button>
        ))}
      {canResume(subscription) && (
        <>
          <p>{end} にプランが終了します。解約を取り消すと、これまでどおり自動で更新されます。</p>
          <Button $variant="primary" onClick={() => void run('resume')} disabled={busy !== null} data-testid="resume">
            {busy === 'resume' ? (
              <>
                <Spinner size="small" label="解約を取り消しています" /> 解約を取り消しています…
              </>
            ) : (
              '解約を取り消す（自動更新を再開する）'
            )}
          </Button>
        </>
      )}
    </div>
  );
}
