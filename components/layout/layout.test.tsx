import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { TabBar } from './TabBar';
import { TAB_BAR_HEIGHT } from '@/styles/breakpoints';

jest.mock('next/link', () => {
  // `prefetch` is next/link's own prop, not the anchor's.
  const Link = ({ href, children, prefetch, ...rest }: { href: string; children: React.ReactNode; prefetch?: boolean }) => {
    void prefetch;
    return (
      <a href={href} {...rest}>
        {children}
      </a>
    );
  };
  return { __esModule: true, default: Link };
});

describe('TabBar', () => {
  it('has four Japanese tabs in order and highlights the current one', () => {
    renderWithProviders(<TabBar path="/mylist/history" />);
    const links = screen.getAllByRole('link', { hidden: true });
    expect(links.map((l) => l.textContent)).toEqual(['ホーム', 'さがす', 'マイリスト', '設定']);
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/', '/search', '/mylist', '/settings']);
    expect(screen.getByRole('link', { name: 'マイリスト', hidden: true })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'ホーム', hidden: true })).not.toHaveAttribute('aria-current');
  });
  it('is 51 px high', () => {
    renderWithProviders(<TabBar path="/" />);
    expect(TAB_BAR_HEIGHT).toBe(51);
    expect(getComputedStyle(screen.getByTestId('tab-bar')).height).toBe('51px');
  });
});
