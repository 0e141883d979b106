/**
 * The search page's search box (a search landmark): a labelled input, a spinner while results
 * load, and the submit button.
 */
import type { FormEvent } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';

const Form = styled.form`
  display: flex;
  align-items: center;
  gap: 8px;
  margin-bottom: 24px;
  input {
    flex: 1;
    min-width: 0;
    height: 44px;
    padding: 0 12px;
    border-radius: 8px;
    border: 1px solid ${({ theme }) => theme.controlBorder};
    background: ${({ theme }) => theme.surface};
    color: ${({ theme }) => theme.text};
    font: inherit;
  }
`;

interface Props {
  value: string;
  onChange: (q: string) => void;
  onSubmit: () => void;
  busy?: boolean;
  maxLength: number;
}

/** The search box: results follow the typing (the page debounces); Enter searches at once. */
export function SearchBox({ value, onChange, onSubmit, busy, maxLength }: Props) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Form role="search" onSubmit={submit}>
      <input
        type="search"
        name="q"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="タイトル・ブランド・タグ"
        aria-label="検索ワード"
        maxLength={maxLength}
        autoComplete="off"
        enterKeyHint="search"
        data-testid="search-input"
      />
      {busy && <Spinner size="small" />}
      <Button type="submit" $variant="primary">
        検索
      </Button>
    </Form>
  );
}
