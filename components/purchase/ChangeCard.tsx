/**
 * "Change card" on /settings/purchase (issue 9 §3.4): a new card setup (POST
 * /v1/purchase/card-setup), the processor's card form (the sandbox's iframe or Stripe's Payment
 * Element, picked by HostedFrame's CardForm), and once the card is saved
 * POST /v1/purchase/card so renewals are charged to it. Progress while each step runs; a
 * refused card keeps the form with its Japanese message; nothing is charged here.
 */
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { LoadingBlock, Spinner } from '@/components/ui/Spinner';
import { FormMessage } from '@/components/form/Field';
import { ApiClientError, messageFor } from '@/lib/api/client';
import { changeCard, createCardSetup, type CardSetup, type Subscription } from '@/lib/api/purchase';
import { CardForm } from './HostedFrame';

type State = { kind: 'idle' } | { kind: 'setup' } | { kind: 'form'; setup: CardSetup } | { kind: 'saving' };

const messageOf = (e: unknown) => (e instanceof ApiClientError ? e.userMessage : messageFor('unexpected'));

export function ChangeCard({ onChanged }: { onChanged: (s: Subscription) => void }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const saving = useRef(false);

  async function open() {
    setError(null);
    setDone(false);
    setState({ kind: 'setup' });
    try {
      setState({ kind: 'form', setup: await createCardSetup() });
    } catch (e) {
      setError(messageOf(e));
      setState({ kind: 'idle' });
    }
  }

  async function save(setup: CardSetup) {
    if (saving.current) return;
    saving.current = true;
    setState({ kind: 'saving' });
    try {
      onChanged(await changeCard(setup.setupId));
      setDone(true);
      setState({ kind: 'idle' });
    } catch (e) {
      setError(messageOf(e));
      setState({ kind: 'idle' });
    } finally {
      saving.current = false;
    }
  }

  return (
    <div data-testid="change-card" data-state={state.kind}>
      {done && <FormMessage data-testid="card-changed">お支払いに使うカードを変更しました。次回の更新から新しいカードに請求します。</FormMessage>}
      {error && (
        <FormMessage $kind="error" role="alert" data-testid="change-card-error">
          {error}
        </FormMessage>
      )}
      {state.kind === 'idle' && (
        <Button $variant="normal" onClick={() => void open()} data-testid="change-card-open">
          カードを変更する
        </Button>
      )}
      {state.kind === 'setup' && <LoadingBlock label="カード入力フォームを準備しています…" />}
      {state.kind === 'form' && (
        <>
          <CardForm
            setup={state.setup}
            title="新しいカード情報の入力フォーム"
            testId="change-card-frame"
            submitLabel="このカードに変更する"
            onSaved={() => void save(state.setup)}
            onFailed={setError}
          />
          <Button $variant="text" onClick={() => setState({ kind: 'idle' })}>
            やめる
          </Button>
        </>
      )}
      {state.kind === 'saving' && (
        <p>
          <Spinner size="small" label="カードを変更しています" /> カードを変更しています…
        </p>
      )}
    </div>
  );
}
