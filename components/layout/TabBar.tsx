import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { activeTabOf, TABS } from '@/lib/routes/rules';
import { media, TAB_BAR_HEIGHT } from '@/styles/breakpoints';
import { Icon } from './icons';

const Bar = styled.nav`
  display: none;
  ${media.tabletDown} {
    display: flex;
  }
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 50;
  height: ${TAB_BAR_HEIGHT}px;
  background: ${({ theme }) => theme.surface};
  border-top: 1px solid ${({ theme }) => theme.border};
  padding-bottom: env(safe-area-inset-bottom);
`;

const Tab = styled(Link)<{ $active: boolean }>`
  flex: 1;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 2px;
  font-size: 0.68rem;
  text-decoration: none;
  color: ${({ theme, $active }) => ($active ? theme.primary : theme.textMuted)};
  font-weight: ${({ $active }) => ($active ? 700 : 400)};
`;

/** Bottom tab bar (spec section 2): tablet width or narrower, 51 px, four tabs. */
export function TabBar({ path }: { path: string }) {
  const active = activeTabOf(path);
  return (
    <Bar aria-label="メインメニュー" data-testid="tab-bar">
      {TABS.map((tab) => (
        <Tab key={tab.href} href={tab.href} $active={active === tab.href} aria-current={active === tab.href ? 'page' : undefined}>
          <Icon name={tab.icon} size={22} />
          {tab.label}
        </Tab>
      ))}
    </Bar>
  );
}
