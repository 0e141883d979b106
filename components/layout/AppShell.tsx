import type { ReactNode } from 'react';
import styled from 'styled-components';
import { isHeaderHidden, isTabBarHidden } from '@/lib/routes/rules';
import { media, TAB_BAR_HEIGHT } from '@/styles/breakpoints';
import { Header } from './Header';
import { TabBar } from './TabBar';
import { Footer } from './Footer';

const Main = styled.main<{ $withTabBar: boolean }>`
  min-height: 70vh;
  ${media.tabletDown} {
    padding-bottom: ${({ $withTabBar }) => ($withTabBar ? `${TAB_BAR_HEIGHT}px` : 0)};
  }
`;

/** The frame around every page: header, main, footer and the bottom tab bar. */
export function AppShell({ path, children }: { path: string; children: ReactNode }) {
  const headerHidden = isHeaderHidden(path);
  const tabBarHidden = isTabBarHidden(path);
  return (
    <>
      {!headerHidden && <Header path={path} />}
      <Main id="main" $withTabBar={!tabBarHidden}>
        {children}
      </Main>
      {!headerHidden && <Footer />}
      {!tabBarHidden && <TabBar path={path} />}
    </>
  );
}
