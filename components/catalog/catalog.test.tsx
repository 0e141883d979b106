import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { resetSafeCheck, saveSafeCheck } from '@/lib/storage/safeCheck';
import { OVER_18_ANSWER } from '@/lib/safecheck/ageGate';
import type { GameSummary } from '@/lib/types/game';
import type { ArticleSummary } from '@/lib/api/catalog';
import { GameCard } from './GameCard';
import { TitleGrid } from './TitleGrid';
import { TitleRow } from './TitleRow';
import { ArticleList } from './ArticleList';
import { HomeRows } from './HomeRows';

jest.mock('@/components/mylist/ContinuePlaying', () => ({ ContinuePlaying: () => null }));

const game = (id: string, over: Partial<GameSummary> = {}): GameSummary => ({
  id,
  title: `タイトル${id}`,
  reading: 'たいとる',
  brandId: 'yunagi',
  brand: '夕凪ソフト',
  description: '説明',
  tags: [],
  genres: ['恋愛'],
  releaseDate: '2026-08-31',
  keyArt: `/games/${id}/keyart.png`,
  ageRating: 'all',
  plays: 0,
  premium: false,
  ...over,
});
const adult = game('adult', { title: '大人のタイトル', ageRating: 'r18' });
const article = (slug: string, ageRating: ArticleSummary['ageRating'] = 'all'): ArticleSummary => ({
  slug,
  title: `記事${slug}`,
  lead: 'リード',
  publishedAt: '2026-09-01',
  author: '編集部',
  gameIds: [],
  tags: [],
  cover: '/c.png',
  ageRating,
});

beforeEach(() => act(() => resetSafeCheck()));

describe('GameCard', () => {
  it('links to the title page with title, brand and key art through the image optimiser', () => {
    renderWithProviders(<GameCard game={game('a b', { ageRating: 'r15' })} />);
    const card = screen.getByTestId('game-card');
    expect(card).toHaveAttribute('href', '/title/a%20b');
    expect(card).toHaveTextContent('タイトルa b');
    expect(card).toHaveTextContent('夕凪ソフト');
    expect(within(card).getByTestId('age-badge')).toHaveTextContent('15歳以上');
    expect(card.querySelector('img')?.getAttribute('src')).toMatch(/\/_next\/image\?url=%2Fgames%2Fa%20b%2Fkeyart\.png&w=\d+&q=75/);
  });
});

describe('rows and grids under the safe check', () => {
  it('leave age-rated titles out until the user confirms being over 18', () => {
    renderWithProviders(<TitleRow title="新着タイトル" games={[game('a'), adult]} testId="row" />);
    expect(screen.getAllByTestId('game-card')).toHaveLength(1);
    expect(screen.queryByText('大人のタイトル')).toBeNull();
    act(() => saveSafeCheck(OVER_18_ANSWER));
    expect(screen.getAllByTestId('game-card')).toHaveLength(2);
    // Sign-out resets the safe check: hidden again at once.
    act(() => resetSafeCheck());
    expect(screen.getAllByTestId('game-card')).toHaveLength(1);
  });

  it('give a row\'s "もっと見る" link a tap target of at least 24 px (WCAG 2.5.8; the text alone is 23 px)', () => {
    renderWithProviders(<TitleRow title="新着タイトル" games={[game('a')]} moreHref="/search?q=new" testId="row" />);
    const more = getComputedStyle(screen.getByRole('link', { name: 'もっと見る' }));
    // min-height holds only on a box that is not inline
    expect(more.display).toBe('inline-flex');
    expect(parseFloat(more.minHeight)).toBeGreaterThanOrEqual(24);
  });

  it('render no row at all when nothing is left to show', () => {
    renderWithProviders(<TitleRow title="恋愛" games={[adult]} testId="row" />);
    expect(screen.queryByTestId('row')).toBeNull();
  });

  it('say how many titles a grid keeps back, and answering はい there shows them', () => {
    renderWithProviders(<TitleGrid games={[game('a'), adult]} noticeHidden />);
    expect(screen.getByTestId('hidden-titles-notice')).toHaveTextContent('18歳以上向けのタイトルが1件あります');
    fireEvent.click(screen.getByTestId('age-confirm-open'));
    fireEvent.click(screen.getByTestId('age-gate-yes'));
    expect(screen.queryByTestId('hidden-titles-notice')).toBeNull();
    expect(screen.getByText('大人のタイトル')).toBeInTheDocument();
  });

  it('keep titles hidden, and stop asking, after いいえ', () => {
    renderWithProviders(<TitleGrid games={[adult, game('a')]} noticeHidden />);
    fireEvent.click(screen.getByTestId('age-confirm-open'));
    fireEvent.click(screen.getByTestId('age-gate-no'));
    expect(screen.queryByTestId('hidden-titles-notice')).toBeNull();
    expect(screen.queryByText('大人のタイトル')).toBeNull();
    expect(screen.getAllByTestId('game-card')).toHaveLength(1);
  });

  it('hide articles about age-rated titles like the titles', () => {
    renderWithProviders(<ArticleList articles={[article('a'), article('b', 'r18')]} noticeHidden />);
    expect(screen.getAllByTestId('article-card')).toHaveLength(1);
    expect(screen.getByTestId('article-card')).toHaveAttribute('href', '/magazine/a');
    expect(screen.getByTestId('hidden-titles-notice')).toHaveTextContent('18歳以上向けの記事が1件あります');
  });
});

describe('HomeRows', () => {
  const home = {
    featured: adult,
    newTitles: [adult, game('new')],
    popular: [game('pop')],
    genres: [{ genre: '恋愛', titles: [adult] }, { genre: 'ファンタジー', titles: [game('fan')] }],
    articles: [article('a')],
  };

  it('features the first title the safe check shows, and every non-empty row', () => {
    renderWithProviders(<HomeRows home={home} />);
    expect(screen.getByTestId('featured-title')).toHaveTextContent('タイトルnew');
    expect(screen.getByTestId('featured-play')).toHaveAttribute('href', '/play/new');
    expect(screen.getByTestId('row-new')).toBeInTheDocument();
    expect(screen.getByTestId('row-popular')).toBeInTheDocument();
    expect(screen.getAllByTestId('row-genre')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'もっと見る' })).toHaveAttribute('href', `/search?q=${encodeURIComponent('ファンタジー')}`);
    expect(within(screen.getByTestId('row-magazine')).getByRole('link', { name: '記事をすべて見る' })).toHaveAttribute('href', '/magazine');
    act(() => saveSafeCheck(OVER_18_ANSWER));
    expect(screen.getByTestId('featured-title')).toHaveTextContent('大人のタイトル');
    expect(screen.getAllByTestId('row-genre')).toHaveLength(2);
  });

  it('says so in Japanese when the catalogue is empty', () => {
    renderWithProviders(<HomeRows home={{ featured: null, newTitles: [], popular: [], genres: [], articles: [] }} />);
    expect(screen.getByTestId('empty-state')).toHaveTextContent('まだ公開中のタイトルはありません');
  });
});
