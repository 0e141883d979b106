import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { config } from '@/lib/config';
import { ShareToX } from './ShareToX';
import { xShareUrl } from '@/lib/share/x';

const trackMock = jest.fn();
jest.mock('@/lib/analytics', () => ({ track: (...a: unknown[]) => trackMock(...a) }));

describe('share to X', () => {
  it('opens the tweet intent with the title and the title page URL, with rel noopener', () => {
    renderWithProviders(<ShareToX gameId="hoshifuru-toshokan" title="星降る図書館" />);
    const link = screen.getByTestId('share-x');
    const href = link.getAttribute('href') ?? '';
    const url = new URL(href);
    expect(`${url.origin}${url.pathname}`).toBe('https://twitter.com/intent/tweet');
    expect(url.searchParams.get('text')).toBe('星降る図書館');
    expect(url.searchParams.get('url')).toBe(`${config.siteUrl}/title/hoshifuru-toshokan`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link).toHaveTextContent('Xでシェア');
    fireEvent.click(link);
    expect(trackMock).toHaveBeenCalledWith('outbound_link', { url: href, gameId: 'hoshifuru-toshokan' });
  });

  it('escapes what the title and id contain', () => {
    const url = new URL(xShareUrl('A&B #1', 'a b'));
    expect(url.searchParams.get('text')).toBe('A&B #1');
    expect(url.searchParams.get('url')).toBe(`${config.siteUrl}/title/a%20b`);
  });
});
