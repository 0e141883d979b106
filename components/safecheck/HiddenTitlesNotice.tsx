import { useState } from 'react';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { AgeGatePanel } from './AgeGatePanel';

const Box = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 16px;
  margin: 0 0 16px;
  padding: 12px 16px;
  border-radius: 12px;
  border: 1px dashed ${({ theme }) => theme.border};
  color: ${({ theme }) => theme.textMuted};
  font-size: 0.9rem;
  p {
    margin: 0;
  }
`;

/**
 * Says that a list keeps age-rated titles back, and lets the user answer the age question
 * there. Nothing once answered (shown, or declined: then the user said no).
 */
export function HiddenTitlesNotice({ count, what = 'タイトル' }: { count: number; what?: string }) {
  const { state } = useSafeCheck();
  const [asking, setAsking] = useState(false);
  if (count <= 0 || state !== 'ask') return null;
  return (
    <Box data-testid="hidden-titles-notice">
      <p>
        18歳以上向けの{what}が{count}件あります。表示するには年齢の確認が必要です。
      </p>
      {asking ? (
        <AgeGatePanel compact />
      ) : (
        <Button $variant="text-attention" onClick={() => setAsking(true)} data-testid="age-confirm-open">
          年齢を確認する
        </Button>
      )}
    </Box>
  );
}
