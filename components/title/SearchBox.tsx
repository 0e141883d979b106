import { useState, type FormEvent } from 'react';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';

const Form = styled.form`
  display: flex;
  gap: 8px;
  margin-bottom: 24px;
  input {
    flex: 1;
    height: 44px;
    padding: 0 12px;
    border-radius: 8px;
    border: 1px solid ${({ theme }) => theme.border};
    background: ${({ theme }) => theme.surface};
    color: ${({ theme }) => theme.text};
    font: inherit;
  }
`;

export function SearchBox({ initial }: { initial: string }) {
  const router = useRouter();
  const [q, setQ] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void router.push({ pathname: '/search', query: q.trim() ? { q: q.trim() } : {} });
  };
  return (
    <Form role="search" onSubmit={submit}>
      <input type="search" name="q" value={q} onChange={(e) => setQ(e.target.value)} placeholder="タイトル・ブランド・タグ" aria-label="検索ワード" maxLength={100} />
      <Button type="submit" $variant="primary">
        検索
      </Button>
    </Form>
  );
}
