import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import type { SearchResult } from '@/lib/api/catalog';
import type { GameSummary } from '@/lib/types/game';
import { resetSafeCheck } from '@/lib/storage/safeCheck';
import Search, { getServerSideProps } from '@/pages/search';

const replace = jest.fn(() => Promise.resolve(true));
jest.mock('next/router', () => ({
  __esModule: true,
  default: { replace: (...a: unknown[]) => (replace as jest.Mock)(...a) },
  useRouter: () => ({ replace: jest.fn(), asPath: '/search', pathname: '/search', query: {} }),
}));
jest.mock('next/head', () => ({ __esModule: true, default: () => null }));
const trackMock = jest.fn();
jest.mock('@/lib/analytics', () => ({ track: (...a: unknown[]) => trackMock(...a) }));
const searchMock = jest.fn();
const homeMock = jest.fn();
jest.mock('@/lib/api/catalog', () => ({
  ...jest.requireActual('@/lib/api/catalog'),
  searchCatalog: (...a: unknown[]) => searchMock(...a),
  fetchHome: (...a: unknown[]) => homeMock(...a),
  fetchTitles: () => Promise.resolve({ items: [], nextCursor: null }),
}));

const game = (id: string, title: string, over: Partial<GameSummary> = {}): GameSummary => ({
  id,
  title,
  reading: '',
  brandId: 'b',
  brand: 'ブランド',
  description: '',
  tags: [],
  genres: [],
  releaseDate: '2026-01-01',
  keyArt: `/games/${id}/keyart.png`,
  ageRating: 'all',
  plays: 0,
  premium: false,
  ...over,
});
const result = (query: string, titles: GameSummary[], over: Partial<SearchResult> = {}): SearchResult => ({
  query,
  normalizedQuery: query,
  total: titles.length,
  titles,
  nextCursor: null,
  suggestions: [],
  ...over,
});
const base = { q: '', result: null, popular: [], genres: [], error: null };

beforeEach(() => {
  jest.useRealTimers();
  replace.mockClear();
  trackMock.mockClear();
  searchMock.mockReset();
  homeMock.mockReset();
  act(() => resetSafeCheck());
});

describe('search page', () => {
  it('starts with popular titles and genres to try', () => {
    renderWithProviders(<Search {...base} popular={[game('a', '星降る図書館')]} genres={['恋愛', 'ファンタジー']} />);
    expect(screen.getByTestId('empty-state')).toHaveTextContent('タイトル名・ブランド・タグで検索できます');
    expect(screen.getByTestId('search-genres')).toHaveTextContent('恋愛');
    expect(screen.getByTestId('search-popular')).toHaveTextContent('星降る図書館');
  });

  it('clearing the box after /search?q=… shows the same genres and popular titles as an empty /search', async () => {
    jest.useFakeTimers();
    homeMock.mockResolvedValue({ popular: [game('a', '星降る図書館')], genres: [{ genre: '恋愛', titles: [] }] });
    renderWithProviders(<Search {...base} q="星" result={result('星', [game('h', '星降る図書館')])} />);
    expect(homeMock).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.change(screen.getByTestId('search-input'), { target: { value: '' } });
      jest.advanceTimersByTime(350);
    });
    await act(async () => {
      await jest.runAllTimersAsync();
    });
    expect(screen.getByTestId('empty-state')).toHaveTextContent('タイトル名・ブランド・タグで検索できます');
    expect(screen.getByTestId('search-genres')).toHaveTextContent('恋愛');
    expect(screen.getByTestId('search-popular')).toHaveTextContent('星降る図書館');
    expect(homeMock).toHaveBeenCalledTimes(1);
  });

  it('an empty /search uses the server lists without asking the api again', async () => {
    await act(async () => {
      renderWithProviders(<Search {...base} popular={[game('a', '星降る図書館')]} genres={['恋愛']} />);
    });
    expect(homeMock).not.toHaveBeenCalled();
  });

  it('shows the server-rendered results in the api order and records the search event', () => {
    renderWithProviders(<Search {...base} q="と" result={result('と', [game('b', '二番'), game('a', '一番')])} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('「と」の検索結果');
    expect(screen.getAllByTestId('game-card').map((c) => c.textContent)).toEqual([expect.stringContaining('二番'), expect.stringContaining('一番')]);
    expect(trackMock).toHaveBeenCalledWith('search', expect.objectContaining({ search_term: 'と', result_count: 2 }));
  });

  it('says nothing matched, with the api suggestions as searches', () => {
    renderWithProviders(<Search {...base} q="zzz" result={result('zzz', [], { suggestions: ['はじまりの駅'] })} />);
    expect(screen.getByTestId('empty-state')).toHaveTextContent('「zzz」に一致するタイトルは見つかりませんでした');
    expect(screen.getByRole('link', { name: 'はじまりの駅' })).toHaveAttribute('href', `/search?q=${encodeURIComponent('はじまりの駅')}`);
  });

  it('searches as the user types, once per pause, and moves the URL along (shallow)', async () => {
    jest.useFakeTimers();
    searchMock.mockResolvedValue(result('しぐなる', [game('s', 'シグナル')]));
    renderWithProviders(<Search {...base} />);
    const box = screen.getByTestId('search-input');
    fireEvent.change(box, { target: { value: 'し' } });
    fireEvent.change(box, { target: { value: 'しぐなる' } });
    expect(searchMock).not.toHaveBeenCalled();
    await act(async () => {
      jest.advanceTimersByTime(350);
    });
    expect(searchMock).toHaveBeenCalledTimes(1);
    expect(searchMock).toHaveBeenCalledWith('しぐなる');
    expect(replace).toHaveBeenCalledWith({ pathname: '/search', query: { q: 'しぐなる' } }, undefined, { shallow: true, scroll: false });
    expect(screen.getByTestId('search-results')).toHaveTextContent('シグナル');
    expect(trackMock).toHaveBeenCalledWith('search', expect.objectContaining({ search_term: 'しぐなる' }));
  });

  it('loads the next page with the cursor and appends it', async () => {
    searchMock.mockResolvedValueOnce(result('a', [game('c', '三番')]));
    renderWithProviders(<Search {...base} q="a" result={result('a', [game('a', '一番'), game('b', '二番')], { nextCursor: 'n1', total: 3 })} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('search-more'));
    });
    expect(searchMock).toHaveBeenCalledWith('a', { cursor: 'n1' });
    expect(screen.getAllByTestId('game-card')).toHaveLength(3);
    expect(screen.queryByTestId('search-more')).toBeNull();
  });

  it('keeps age-rated results back until the age is confirmed', () => {
    renderWithProviders(<Search {...base} q="さくら" result={result('さくら', [game('r', '桜色シグナル', { ageRating: 'r18' })])} />);
    expect(screen.queryByTestId('game-card')).toBeNull();
    expect(screen.getByTestId('hidden-titles-notice')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('age-confirm-open'));
    fireEvent.click(screen.getByTestId('age-gate-yes'));
    expect(screen.getByTestId('game-card')).toHaveTextContent('桜色シグナル');
  });

  it('says nothing matched when the only results are age-rated and the answer was いいえ', () => {
    renderWithProviders(<Search {...base} q="さくら" result={result('さくら', [game('r', '桜色シグナル', { ageRating: 'r18' })])} />);
    fireEvent.click(screen.getByTestId('age-confirm-open'));
    fireEvent.click(screen.getByTestId('age-gate-no'));
    expect(screen.queryByTestId('game-card')).toBeNull();
    expect(screen.getByTestId('empty-state')).toHaveTextContent('「さくら」に一致するタイトルは見つかりませんでした');
  });

  it('shows a Japanese message when the api is down', async () => {
    renderWithProviders(<Search {...base} q="a" error="カタログを読み込めませんでした。" />);
    expect(screen.getByTestId('catalog-error')).toHaveTextContent('カタログを読み込めませんでした。');
  });

  describe('a crafted link (/search?q=%00, ?q=%E0%A4)', () => {
    type Props = { q: string; result: SearchResult | null; popular: GameSummary[]; genres: string[]; error: string | null };
    const serverProps = async (q: string | string[]): Promise<Props> => {
      const r = await getServerSideProps({ query: { q } } as unknown as Parameters<typeof getServerSideProps>[0]);
      return (r as { props: Props }).props;
    };

    it('a query of only a NUL or "�" is the empty query: the start page, no search, "検索" as heading', async () => {
      homeMock.mockResolvedValue({ popular: [game('a', '星降る図書館')], genres: [{ genre: '恋愛' }] });
      for (const q of ['\u0000', '\uFFFD', ' \u0000\uFFFD\u007f ']) {
        const props = await serverProps(q);
        expect(props.q).toBe('');
        expect(props.result).toBeNull();
        const { unmount } = renderWithProviders(<Search {...props} />);
        expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^検索$/);
        expect(screen.getByTestId('search-input')).toHaveValue('');
        expect(screen.getByTestId('search-popular')).toHaveTextContent('星降る図書館');
        unmount();
      }
      expect(searchMock).not.toHaveBeenCalled();
    });

    it('searches and shows the rest without the control characters and "�", capped at 100 characters', async () => {
      searchMock.mockImplementation((q: string) => Promise.resolve(result(q, [game('h', '星降る図書館')])));
      const props = await serverProps('\uFFFDほし\u0000ふる\n図書館');
      expect(searchMock).toHaveBeenCalledWith('ほしふる 図書館');
      renderWithProviders(<Search {...props} />);
      const heading = screen.getByRole('heading', { level: 1 }).textContent ?? '';
      expect(heading).toBe('「ほしふる 図書館」の検索結果');
      expect(heading).not.toMatch(/[\u0000-\u001f\uFFFD]/);
      searchMock.mockClear();
      await serverProps('あ'.repeat(150));
      expect(searchMock).toHaveBeenCalledWith('あ'.repeat(100));
    });

    it('what is typed is cleaned the same way before it is searched and put in the address', async () => {
      jest.useFakeTimers();
      searchMock.mockResolvedValue(result('ほし', []));
      renderWithProviders(<Search {...base} />);
      fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'ほし\u0000\uFFFD' } });
      await act(async () => {
        jest.advanceTimersByTime(350);
      });
      expect(searchMock).toHaveBeenCalledWith('ほし');
      expect(replace).toHaveBeenCalledWith({ pathname: '/search', query: { q: 'ほし' } }, undefined, { shallow: true, scroll: false });
    });
  });
});
