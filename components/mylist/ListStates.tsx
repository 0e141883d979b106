import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { LoadingBlock } from '@/components/ui/Spinner';
import type { LoadStatus } from '@/lib/mylist/usePlayHistories';

const Footer = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  margin-top: 20px;
`;

const Alert = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.destructive};
`;

interface StatusProps {
  status: LoadStatus;
  error: string | null;
  empty: boolean;
  /** The honest empty state, shown once loaded with nothing in it. */
  emptyState: ReactNode;
  onRetry?: () => void;
  children: ReactNode;
}

/** Loading, failure (Japanese message and a retry), empty, or the list itself. */
export function ListStatus({ status, error, empty, emptyState, onRetry, children }: StatusProps) {
  if (status === 'loading' && empty) return <LoadingBlock />;
  if (status === 'error' && empty) {
    return (
      <EmptyState title="読み込めませんでした">
        <p role="alert">{error}</p>
        {onRetry && <Button onClick={onRetry}>もう一度読み込む</Button>}
      </EmptyState>
    );
  }
  if (empty) return <>{emptyState}</>;
  return <>{children}</>;
}

/** "もっと見る" while there is a next page, and the failure of the last page load. */
export function MoreFooter({ hasMore, loading, error, onMore }: { hasMore: boolean; loading: boolean; error: string | null; onMore: () => void }) {
  if (!hasMore && !error) return null;
  return (
    <Footer>
      {error && <Alert role="alert">{error}</Alert>}
      {hasMore && (
        <Button onClick={onMore} disabled={loading} aria-busy={loading} data-testid="load-more">
          {loading ? '読み込み中…' : 'もっと見る'}
        </Button>
      )}
    </Footer>
  );
}
