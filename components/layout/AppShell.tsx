/**
 * The frame around every page: a skip link, the header, the page's <main>, the footer and the
 * bottom tab bar (spec section 2; the header and the tab bar hidden on the play page).
 */
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { isHeaderHidden, isTabBarHidden } from '@/lib/routes/rules';
import { media, TAB_BAR_HEIGHT } from '@/styles/breakpoints';
import { Header } from './Header';
import { TabBar } from './TabBar';
import { Footer } from './Footer';

const Main = styled.main<{ $withTabBar: boolean }>`
  min-height: 70vh;
  /* Focused only as the skip link's target: it is no control, so no ring. */
  &:focus {
    outline: none;
  }
  ${media.tabletDown} {
    padding-bottom: ${({ $withTabBar }) => ($withTabBar ? `${TAB_BAR_HEIGHT}px` : 0)};
  }
`;

/** Keyboard users skip the header's controls to the page (issue 12); shown when focused. */
const SkipLink = styled.a`
  position: absolute;
  top: 8px;
  left: 8px;
  z-index: 300;
  padding: 8px 14px;
  border-radius: 8px;
  background: ${({ theme }) => theme.surfaceRaised};
  color: ${({ theme }) => theme.text};
  transform: translateY(-200%);
  &:focus-visible {
    transform: none;
  }
`;

/** The frame around every page: header, main, footer and the bottom tab bar. */
export function AppShell({ path, children }: { path: string; children: ReactNode }) {
  const headerHidden = isHeaderHidden(path);
  const tabBarHidden = isTabBarHidden(path);
  return (
    <>
      {!headerHidden && <SkipLink href="#main">本文へスキップ</SkipLink>}
      {!headerHidden && <Header path={path} />}
      <Main id="main" tabIndex={-1} $withTabBar={!tabBarHidden}>
        {children}
      </Main>
      {!headerHidden && <Footer />}
      {!tabBarHidden && <TabBar path={path} />}
    </>
  );
}
