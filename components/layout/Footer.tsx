/**
 * The footer under every page: the legal texts, the brands and the plans, and the copyright;
 * above the tab bar where the tab bar shows. Each link is at least 24 px to tap (WCAG 2.5.8).
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { media, TAB_BAR_HEIGHT } from '@/styles/breakpoints';
import { tapTarget } from '@/styles/tapTarget';

const Foot = styled.footer`
  padding: 24px 16px 32px;
  border-top: 1px solid ${({ theme }) => theme.border};
  color: ${({ theme }) => theme.textMuted};
  font-size: 0.85rem;
  text-align: center;
  ${media.tabletDown} {
    padding-bottom: ${TAB_BAR_HEIGHT + 24}px;
  }
  nav {
    display: flex;
    flex-wrap: wrap;
    justify-content: center;
    gap: 8px 20px;
    margin-bottom: 12px;
  }
  a {
    color: inherit;
    /* the text alone is 22 px */
    ${tapTarget}
  }
`;

export function Footer() {
  return (
    <Foot>
      <nav aria-label="フッター">
        <Link href="/terms">利用規約</Link>
        <Link href="/privacy">プライバシーポリシー</Link>
        <Link href="/tokushoho">特定商取引法に基づく表記</Link>
        <Link href="/purpose">個人情報の利用目的</Link>
        <Link href="/brand">ブランド一覧</Link>
        <Link href="/upgrade">プレミアムプラン</Link>
      </nav>
      <small>© 2026 Yumecast</small>
    </Foot>
  );
}
