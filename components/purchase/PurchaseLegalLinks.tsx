/**
 * The legal links every purchase page carries (issue 9 §3): terms of use, privacy policy and
 * the 特定商取引法に基づく表記 page.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { TOKUSHOHO_PATH } from '@/lib/purchase/paths';
import { tapTarget } from '@/styles/tapTarget';

const Nav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 16px;
  margin: 24px 0 0;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.textMuted};
  a {
    color: inherit;
    /* the text alone is 22 px */
    ${tapTarget}
  }
`;

export function PurchaseLegalLinks() {
  return (
    <Nav aria-label="ご契約に関する表記" data-testid="purchase-legal-links">
      <Link href="/terms">利用規約</Link>
      <Link href="/privacy">プライバシーポリシー</Link>
      <Link href={TOKUSHOHO_PATH}>特定商取引法に基づく表記</Link>
    </Nav>
  );
}
