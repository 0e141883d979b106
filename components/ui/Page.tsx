import type { ReactNode } from 'react';
import styled from 'styled-components';
import { media } from '@/styles/breakpoints';

export const PageContainer = styled.div<{ $narrow?: boolean }>`
  width: 100%;
  max-width: ${({ $narrow }) => ($narrow ? '560px' : '1200px')};
  margin: 0 auto;
  padding: 24px 16px 48px;
  ${media.mobile} {
    padding: 16px 12px 32px;
  }
`;

export const PageTitle = styled.h1`
  font-size: 1.5rem;
  margin: 0 0 20px;
  line-height: 1.4;
`;

export const Lead = styled.p`
  color: ${({ theme }) => theme.textMuted};
  line-height: 1.8;
  margin: 0 0 20px;
`;

export const Section = styled.section`
  margin: 0 0 32px;
`;

export const SectionTitle = styled.h2`
  font-size: 1.15rem;
  margin: 0 0 12px;
`;

/** A page with its heading: the usual frame of every route. */
export function PageFrame({ title, narrow, children }: { title: string; narrow?: boolean; children?: ReactNode }) {
  return (
    <PageContainer $narrow={narrow}>
      <PageTitle>{title}</PageTitle>
      {children}
    </PageContainer>
  );
}
