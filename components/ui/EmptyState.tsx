import type { ReactNode } from 'react';
import styled from 'styled-components';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  padding: 48px 16px;
  text-align: center;
  color: ${({ theme }) => theme.textMuted};
  border: 1px dashed ${({ theme }) => theme.border};
  border-radius: 12px;
`;

const Title = styled.p`
  margin: 0;
  font-size: 1.05rem;
  font-weight: 700;
  color: ${({ theme }) => theme.text};
`;

/** An honest empty state: what is missing, and what the user can do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box data-testid="empty-state">
      <Title>{title}</Title>
      {children}
    </Box>
  );
}
