/**
 * The global header (spec section 2): logo, the desktop navigation (the current page marked
 * with aria-current), the theme switch and, for a user without a verified login, ログイン.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { activeHeaderItemOf, HEADER_SECTIONS, TABS } from '@/lib/routes/rules';
import { HEADER_HEIGHT, media } from '@/styles/breakpoints';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { displayModal } from '@/store/slices/modal';
import { useThemeSwitch } from '@/components/theme/ThemeSwitch';
import { Button } from '@/components/ui/Button';
import { Icon } from './icons';

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 40;
  height: ${HEADER_HEIGHT}px;
  display: flex;
  align-items: center;
  gap: 16px;
  padding: 0 16px;
  background: ${({ theme }) => theme.surface};
  border-bottom: 1px solid ${({ theme }) => theme.border};
`;

const Logo = styled(Link)`
  display: flex;
  align-items: center;
  img {
    display: block;
    width: 140px;
    height: 30px;
  }
`;

const Nav = styled.nav`
  display: flex;
  gap: 4px;
  flex: 1;
  ${media.tabletDown} {
    display: none;
  }
`;

const NavLink = styled(Link)<{ $active: boolean }>`
  padding: 6px 12px;
  border-radius: 8px;
  text-decoration: none;
  color: ${({ theme, $active }) => ($active ? theme.primary : theme.text)};
  font-weight: ${({ $active }) => ($active ? 700 : 400)};
`;

const Spacer = styled.div`
  flex: 1;
  ${media.desktopUp} {
    display: none;
  }
`;

const IconButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  border: 0;
  border-radius: 50%;
  background: transparent;
  color: ${({ theme }) => theme.text};
  cursor: pointer;
`;

/** Global header (spec section 2): hidden on /play by AppShell. */
export function Header({ path }: { path: string }) {
  const dispatch = useAppDispatch();
  const authState = useAppSelector(selectAuthState);
  const { theme, setTheme } = useThemeSwitch();
  const active = activeHeaderItemOf(path);
  const nextTheme = theme === 'dark' ? 'light' : 'dark';
  return (
    <Bar data-testid="global-header">
      <Logo href="/" aria-label="Yumecast ホーム">
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src="/images/logo.png" srcSet="/images/logo.png 1x, /images/logo@2x.png 2x" alt="Yumecast" width={140} height={30} />
      </Logo>
      <Nav aria-label="グローバルナビゲーション">
        {[...TABS, ...HEADER_SECTIONS].map((t) => (
          <NavLink key={t.href} href={t.href} $active={active === t.href} aria-current={active === t.href ? 'page' : undefined}>
            {t.label}
          </NavLink>
        ))}
      </Nav>
      <Spacer />
      {/* Left of the theme switch: appearing once the auth state is known, it shifts nothing. */}
      {authState !== 'verified' && authState !== 'undefined' && (
        <Button $variant="primary" onClick={() => dispatch(displayModal({ node: 'login' }))} data-testid="header-login">
          ログイン
        </Button>
      )}
      <IconButton
        type="button"
        onClick={() => setTheme(nextTheme)}
        aria-label={nextTheme === 'light' ? 'ライトテーマに切り替える' : 'ダークテーマに切り替える'}
        data-testid="theme-toggle"
      >
        <Icon name={theme === 'dark' ? 'sun' : 'moon'} size={20} />
      </IconButton>
    </Bar>
  );
}
