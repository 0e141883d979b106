/**
 * The play page while a game starts: each step of starting, the current one with a spinner,
 * the queue position when the hosts are busy (spec: long work shows progress), and a way out:
 * キャンセル ends the session on the server (force_close) and goes back to the title page.
 */
import { useState } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { PROGRESS_STEPS, STEP_LABELS, type PlayStep } from '@/lib/session/playMessages';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 20px;
  color: #fff;
  text-align: center;
  ol {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 10px;
    min-width: 260px;
  }
  li {
    display: flex;
    align-items: center;
    gap: 10px;
    /* Steps still to come are dimmer, yet read at 4.5:1 on the black stage (issue 12). */
    opacity: 0.6;
  }
  li[data-state='active'] {
    opacity: 1;
    font-weight: 700;
  }
  li[data-state='done'] {
    opacity: 0.8;
  }
  .mark {
    width: 22px;
    text-align: center;
  }
`;

interface Props {
  step: PlayStep;
  queuePosition: number | null;
  title: string;
  /** Ends the start (or the wait in the queue) and leaves the page. */
  onCancel(): void;
}

/** Starting a game shows each step (spec: long work shows progress), with a cancel. */
export function StartProgress({ step, queuePosition, title, onCancel }: Props) {
  const [cancelling, setCancelling] = useState(false);
  const current = step === 'queue' ? 'start' : step;
  const index = PROGRESS_STEPS.indexOf(current);
  return (
    <Box data-testid="start-progress" data-step={step}>
      <h2>{title}</h2>
      <ol>
        {PROGRESS_STEPS.map((s, i) => {
          const state = i < index ? 'done' : i === index ? 'active' : 'todo';
          return (
            <li key={s} data-state={state}>
              <span className="mark">{state === 'done' ? '✓' : state === 'active' ? <Spinner size="small" label={STEP_LABELS[s]} /> : '・'}</span>
              {STEP_LABELS[s]}
            </li>
          );
        })}
      </ol>
      {step === 'queue' && (
        <p data-testid="queue-position">
          ただいま混み合っています。順番待ち：{queuePosition ?? '—'}番目
        </p>
      )}
      <Button
        data-testid="start-cancel"
        disabled={cancelling}
        onClick={() => {
          setCancelling(true);
          onCancel();
        }}
      >
        {cancelling ? 'キャンセルしています…' : 'キャンセル'}
      </Button>
    </Box>
  );
}
