/**
 * Two shapes many pages share: a `Callout` (a bordered, rounded box in the theme's attention,
 * destructive or primary colour: prompts, confirmations, results) and a `FactList` (a two-column
 * definition list: label on the left, value on the right — title facts, plan details). Pages add
 * their own inner rules with `styled(Callout)` / `styled(FactList)`.
 */
import styled from 'styled-components';

export type CalloutTone = 'attention' | 'destructive' | 'primary';

export const Callout = styled.div<{ $tone: CalloutTone; $strong?: boolean }>`
  padding: ${({ $strong }) => ($strong ? '20px' : '14px 16px')};
  border-radius: ${({ $strong }) => ($strong ? '16px' : '12px')};
  border: ${({ $strong }) => ($strong ? '2px' : '1px')} solid ${({ theme, $tone }) => theme[$tone]};
  background: ${({ theme }) => theme.surface};
  line-height: 1.8;
  margin: 0 0 16px;
`;

export const FactList = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 8px 16px;
  margin: 0 0 20px;
  dt {
    color: ${({ theme }) => theme.textMuted};
    font-size: 0.9rem;
  }
  dd {
    margin: 0;
  }
`;
