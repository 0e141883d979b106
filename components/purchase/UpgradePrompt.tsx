/**
 * The Japanese prompt to upgrade, shown where a premium title cannot be started without a
 * subscription (issue 9 §1): on the title page for users without an active plan, and on the
 * play page when the api answers `subscription_required`. It links to /upgrade.
 */
import Link from 'next/link';
import styled from 'styled-components';
import { buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';

const Box = styled.div`
  padding: 14px 16px;
  border-radius: 12px;
  border: 1px solid ${({ theme }) => theme.attention};
  background: ${({ theme }) => theme.surface};
  line-height: 1.8;
  margin: 0 0 16px;
  p {
    margin: 0 0 10px;
  }
`;

const Cta = styled(Link)<ButtonStyleProps>`
  ${buttonStyle}
`;

export const UPGRADE_PROMPT_TEXT = 'このタイトルはプレミアムプラン会員限定です。プレミアムプランに登録すると、すぐにプレイできます。';

export function UpgradePrompt({ compact = false }: { compact?: boolean }) {
  return (
    <Box data-testid="upgrade-prompt" role="note">
      <p>{UPGRADE_PROMPT_TEXT}</p>
      <Cta href="/upgrade" $variant="primary" $size={compact ? 'normal' : 'large'} data-testid="upgrade-link">
        プレミアムプランを見る
      </Cta>
    </Box>
  );
}
