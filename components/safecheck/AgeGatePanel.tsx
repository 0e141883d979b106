import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';

const Panel = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  max-width: 420px;
  padding: 20px 24px;
  border-radius: 12px;
  background: ${({ theme }) => theme.overlay};
  color: #fff;
  text-align: center;
  p {
    margin: 0;
    line-height: 1.7;
    font-size: 0.9rem;
  }
  .question {
    font-size: 1.15rem;
    font-weight: 700;
  }
  .actions {
    display: flex;
    gap: 12px;
  }
`;

/**
 * The age confirmation of the safe check (spec section 3). はい shows age-rated content
 * everywhere at once; いいえ keeps it hidden, with a way to answer again.
 */
export function AgeGatePanel({ compact }: { compact?: boolean }) {
  const { state, answerOver18, answerUnder18, askAgain } = useSafeCheck();
  if (state === 'allowed') return null;
  if (state === 'declined') {
    return (
      <Panel role="group" aria-label="年齢確認" data-testid="age-gate-declined">
        <p className="question">18歳未満の方はご覧いただけません</p>
        {!compact && <p>このコンテンツは18歳以上の方を対象としています。</p>}
        <Button $variant="text" onClick={askAgain} data-testid="age-gate-retry">
          回答をやり直す
        </Button>
      </Panel>
    );
  }
  return (
    <Panel role="group" aria-label="年齢確認" data-testid="age-gate">
      <p className="question">18歳以上ですか？</p>
      {!compact && <p>このコンテンツは18歳以上の方を対象としています。年齢の確認にご協力ください。</p>}
      <div className="actions">
        <Button $variant="primary" onClick={answerOver18} data-testid="age-gate-yes">
          はい
        </Button>
        <Button onClick={answerUnder18} data-testid="age-gate-no">
          いいえ
        </Button>
      </div>
    </Panel>
  );
}
