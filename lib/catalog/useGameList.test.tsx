import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import type { GameSummary } from '@/lib/types/game';
import { useGameList } from './useGameList';

const fetchTitles = jest.fn();
jest.mock('@/lib/api/catalog', () => ({ fetchTitles: (...a: unknown[]) => fetchTitles(...a) }));

const g = (id: string) => ({ id, title: id, ageRating: 'all' }) as GameSummary;

function Probe() {
  const list = useGameList();
  return <p data-testid="ids">{list.map((x) => x.id).join(',')}</p>;
}

beforeEach(() => fetchTitles.mockReset());

describe('useGameList', () => {
  it('fills game.gameList (GAME.UPDATE_GAME_LIST) with every page of the catalogue, once for all pages mounted', async () => {
    fetchTitles.mockResolvedValueOnce({ items: [g('a'), g('b')], nextCursor: 'c2' }).mockResolvedValueOnce({ items: [g('c')], nextCursor: null });
    const { store } = renderWithProviders(
      <>
        <Probe />
        <Probe />
      </>,
    );
    await waitFor(() => expect(store.getState().game.gameList.map((x) => x.id)).toEqual(['a', 'b', 'c']));
    expect(fetchTitles).toHaveBeenCalledTimes(2);
    expect(fetchTitles).toHaveBeenNthCalledWith(1, { sort: 'title', limit: 100, cursor: null });
    expect(fetchTitles).toHaveBeenNthCalledWith(2, { sort: 'title', limit: 100, cursor: 'c2' });
    expect(screen.getAllByTestId('ids')[0]).toHaveTextContent('a,b,c');
  });

  it('does not fetch when the store already has the list, and survives an api failure', async () => {
    renderWithProviders(<Probe />, { preloadedState: { game: { gameList: [g('x')] } } });
    expect(fetchTitles).not.toHaveBeenCalled();
    fetchTitles.mockRejectedValueOnce(new Error('down'));
    const { store } = renderWithProviders(<Probe />);
    await waitFor(() => expect(fetchTitles).toHaveBeenCalledTimes(1));
    expect(store.getState().game.gameList).toEqual([]);
  });
});
