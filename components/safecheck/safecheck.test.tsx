import { act, fireEvent, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { renderWithProviders } from '@/test/renderWithProviders';
import { loadSafeCheck, resetSafeCheck, saveSafeCheck } from '@/lib/storage/safeCheck';
import { OVER_18_ANSWER } from '@/lib/safecheck/ageGate';
import { GatedImage } from './GatedImage';
import { AgeGatePanel } from './AgeGatePanel';

beforeEach(() => act(() => resetSafeCheck()));

const art = (rating: 'all' | 'r18') => <GatedImage src="/games/x/keyart.png" alt="キービジュアル" width={1280} height={720} sizes="100vw" ageRating={rating} withPanel />;
const imgWidths = (el: HTMLElement) => [...el.querySelectorAll('img')].map((i) => `${i.getAttribute('src')} ${i.getAttribute('srcset') ?? ''}`).join(' ');

describe('safe-check gate', () => {
  it('shows all-ages art as is', () => {
    renderWithProviders(art('all'));
    expect(screen.getByAltText('キービジュアル')).toBeInTheDocument();
    expect(screen.queryByTestId('age-gate')).toBeNull();
  });

  it('blurs age-rated art behind 「18歳以上ですか？」 with only a 16 px picture, then shows it on はい', () => {
    const { container } = renderWithProviders(art('r18'));
    expect(screen.getByTestId('gated-image')).toBeInTheDocument();
    expect(screen.getByText('18歳以上ですか？')).toBeInTheDocument();
    expect(imgWidths(container)).not.toMatch(/w=(64|96|128|256|384|640|750|828|1080|1200|1920|2048|3840)\b/);
    expect(screen.queryByAltText('キービジュアル')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'はい' }));
    expect(loadSafeCheck()).toEqual({ confirmed: true, over18: true, isNSFWMode: true });
    expect(screen.getByAltText('キービジュアル')).toBeInTheDocument();
    expect(screen.queryByTestId('gated-image')).toBeNull();
  });

  it('keeps it blurred on いいえ, says why, and can ask again', () => {
    renderWithProviders(art('r18'));
    fireEvent.click(screen.getByRole('button', { name: 'いいえ' }));
    expect(loadSafeCheck()).toEqual({ confirmed: true, over18: false, isNSFWMode: false });
    expect(screen.getByTestId('age-gate-declined')).toHaveTextContent('18歳未満の方はご覧いただけません');
    expect(screen.getByTestId('gated-image')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('age-gate-retry'));
    expect(screen.getByText('18歳以上ですか？')).toBeInTheDocument();
  });

  it('blurs again at once when the safe check is reset (sign-out)', () => {
    act(() => saveSafeCheck(OVER_18_ANSWER));
    renderWithProviders(art('r18'));
    expect(screen.getByAltText('キービジュアル')).toBeInTheDocument();
    act(() => resetSafeCheck());
    expect(screen.getByTestId('gated-image')).toBeInTheDocument();
  });

  it('answers the same in every panel on the page at once', () => {
    renderWithProviders(
      <>
        <AgeGatePanel />
        {art('r18')}
      </>,
    );
    expect(screen.getAllByText('18歳以上ですか？')).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: 'はい' })[0]);
    expect(screen.queryByText('18歳以上ですか？')).toBeNull();
    expect(screen.getByAltText('キービジュアル')).toBeInTheDocument();
  });

  it('never renders the full art on the server, even for a confirmed device', () => {
    saveSafeCheck(OVER_18_ANSWER);
    const { ThemeProvider } = jest.requireActual('styled-components');
    const { darkTheme } = jest.requireActual('@/styles/theme');
    const html = renderToString(<ThemeProvider theme={darkTheme}>{art('r18')}</ThemeProvider>);
    expect(html).toContain('18歳以上ですか？');
    expect(html).not.toContain('キービジュアル');
    expect(html).not.toMatch(/w=(64|96|128|256|384|640|750|828|1080|1200|1920|2048|3840)\b/);
  });
});
