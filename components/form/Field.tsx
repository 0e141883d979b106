/**
 * A labelled form input with its Japanese validation message, tied together for screen readers
 * (label, aria-invalid, aria-describedby); the input's edge reads at 3:1 (theme.controlBorder).
 */
import { useId, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';

const Wrap = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  margin-bottom: 16px;
  label {
    font-weight: 700;
    font-size: 0.92rem;
  }
  input {
    height: 44px;
    padding: 0 12px;
    border-radius: 8px;
    border: 1px solid ${({ theme }) => theme.controlBorder};
    background: ${({ theme }) => theme.surface};
    color: ${({ theme }) => theme.text};
    font: inherit;
  }
  input[aria-invalid='true'] {
    border-color: ${({ theme }) => theme.destructive};
  }
  .error {
    color: ${({ theme }) => theme.destructive};
    font-size: 0.85rem;
    margin: 0;
  }
`;

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
}

/** A labelled input with its validation message (Japanese), tied together for screen readers. */
export function Field({ label, error, ...input }: FieldProps) {
  const id = useId();
  const errId = `${id}-error`;
  return (
    <Wrap>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errId : undefined} {...input} />
      {error && (
        <p className="error" id={errId} role="alert">
          {error}
        </p>
      )}
    </Wrap>
  );
}

export const FormMessage = styled.p<{ $kind?: 'error' | 'info' }>`
  padding: 12px 14px;
  border-radius: 8px;
  margin: 0 0 16px;
  background: ${({ theme }) => theme.surfaceRaised};
  border-left: 4px solid ${({ theme, $kind }) => ($kind === 'error' ? theme.destructive : theme.primary)};
  line-height: 1.7;
`;
