import { useEffect } from 'react';
import styled from 'styled-components';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import type { ToastEntry } from '@/store/slices/toast';
import { removeToast } from '@/store/slices/toastThunks';
import { media } from '@/styles/breakpoints';

const DEFAULT_DURATION_MS = 4000;

const Stack = styled.div`
  position: fixed;
  top: 16px;
  right: 16px;
  z-index: 200;
  display: flex;
  flex-direction: column;
  gap: 8px;
  width: 360px;
  pointer-events: none;
  ${media.mobile} {
    top: 8px;
    left: 8px;
    right: 8px;
    width: auto;
  }
`;

const Item = styled.div<{ $kind: ToastEntry['node'] }>`
  pointer-events: auto;
  display: flex;
  align-items: flex-start;
  gap: 8px;
  padding: 12px 14px;
  border-radius: 10px;
  background: ${({ theme }) => theme.surfaceRaised};
  color: ${({ theme }) => theme.text};
  border-left: 4px solid
    ${({ theme, $kind }) => ($kind === 'error' ? theme.destructive : $kind === 'success' ? '#3ecf8e' : theme.primary)};
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.3);
  font-size: 0.92rem;
  p {
    flex: 1;
    margin: 0;
  }
  button {
    border: 0;
    background: transparent;
    color: ${({ theme }) => theme.textMuted};
    cursor: pointer;
    font-size: 1rem;
  }
`;

function Toast({ entry }: { entry: ToastEntry }) {
  const dispatch = useAppDispatch();
  const duration = entry.props.durationMs ?? DEFAULT_DURATION_MS;
  useEffect(() => {
    if (duration <= 0) return;
    const t = setTimeout(() => dispatch(removeToast(entry.key)), duration);
    return () => clearTimeout(t);
  }, [dispatch, entry.key, duration]);
  return (
    <Item $kind={entry.node} role={entry.node === 'error' ? 'alert' : 'status'} data-testid="toast">
      <p>{entry.props.message}</p>
      <button type="button" aria-label="閉じる" onClick={() => dispatch(removeToast(entry.key))}>
        ×
      </button>
    </Item>
  );
}

/** Toast stack (spec section 2): top right, full width on mobile. */
export function ToastStack() {
  const stack = useAppSelector((s) => s.toast.stack);
  return (
    <Stack data-testid="toast-stack" aria-live="polite">
      {stack.map((entry) => (
        <Toast key={entry.key} entry={entry} />
      ))}
    </Stack>
  );
}
