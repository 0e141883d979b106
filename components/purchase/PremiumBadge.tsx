/**
 * The プレミアム badge of a premium title (issue 9 §1: only subscribers may start it; the
 * catalogue's title carries `premium`). Shown on the title page beside the title.
 */
import styled from 'styled-components';

const Badge = styled.span`
  display: inline-block;
  padding: 1px 8px;
  border-radius: 4px;
  font-size: 0.75rem;
  font-weight: 700;
  color: ${({ theme }) => theme.attentionText};
  background: ${({ theme }) => theme.attention};
  vertical-align: middle;
`;

export function PremiumBadge() {
  return (
    <Badge data-testid="premium-badge" title="プレミアムプラン会員限定のタイトルです">
      プレミアム
    </Badge>
  );
}
