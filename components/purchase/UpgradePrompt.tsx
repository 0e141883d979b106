/**
 * The Japanese prompt to upgrade, shown where a premium title cannot be started without a
 * subscription (issue 9 §1): on the title page for users without an active plan, and on the
 * play page when the api answers `subscription_required`. It links to /upgrade.
 */
import styled from 'styled-components';
import { LinkButton } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Panel';
import { UPGRADE_PATH } from '@/lib/purchase/paths';

const Box = styled(Callout)`
  p {
    margin: 0 0 10px;
  }
`;

export const UPGRADE_PROMPT_TEXT = 'このタイトルはプレミアムプラン会員限定です。プレミアムプランに登録すると、すぐにプレイできます。';

export function UpgradePrompt({ compact = false }: { compact?: boolean }) {
  return (
    <Box $tone="attention" data-testid="upgrade-prompt" role="note">
      <p>{UPGRADE_PROMPT_TEXT}</p>
      <LinkButton href={UPGRADE_PATH} $variant="primary" $size={compact ? 'normal' : 'large'} data-testid="upgrade-link">
        プレミアムプランを見る
      </LinkButton>
    </Box>
  );
}
