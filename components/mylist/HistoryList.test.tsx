import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { gameSummary, testUser, userState } from '@/lib/mylist/testFixtures';
import { HistoryList } from './HistoryList';

const listPlayHistory = jest.fn();
jest.mock('@/lib/api/mylist', () => ({ listPlayHistory: (...a: unknown[]) => listPlayHistory(...a) }));

beforeEach(() => listPlayHistory.mockReset());

const item = (id: string, over = {}) => ({ gameId: id, game: gameSummary(id), lastPlayedAt: Date.UTC(2025, 2, 3, 23, 5), totalSeconds: 83 * 60 + 20, playCount: 3, ...over });

describe('HistoryList', () => {
  it('shows title, last played, total time, play count and a continue button', async () => {
    listPlayHistory.mockResolvedValue({ items: [item('a')], nextCursor: null });
    renderWithProviders(<HistoryList />, { preloadedState: userState(testUser()) });
    const row = await screen.findByTestId('history-item');
    expect(within(row).getByRole('link', { name: 'タイトルa' })).toHaveAttribute('href', '/title/a');
    expect(within(row).getByText('最終プレイ 2025年3月4日 08:05')).toBeInTheDocument();
    expect(within(row).getByText('合計 1時間23分')).toBeInTheDocument();
    expect(within(row).getByText('プレイ回数 3回')).toBeInTheDocument();
    expect(within(row).getByTestId('continue-button')).toHaveAttribute('href', '/play/a');
    expect(screen.queryByTestId('load-more')).toBeNull();
  });

  it('pages with 「もっと見る」, appending to the store', async () => {
    listPlayHistory.mockResolvedValueOnce({ items: [item('a')], nextCursor: 'c2' }).mockResolvedValueOnce({ items: [item('b', { playCount: 1 })], nextCursor: null });
    const { store } = renderWithProviders(<HistoryList />, { preloadedState: userState(testUser()) });
    fireEvent.click(await screen.findByTestId('load-more'));
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(2));
    expect(listPlayHistory).toHaveBeenLastCalledWith({ cursor: 'c2', limit: 20 });
    expect(store.getState().user.playHistories.map((h) => h.gameId)).toEqual(['a', 'b']);
    expect(screen.queryByTestId('load-more')).toBeNull();
  });

  it('has an honest empty state', async () => {
    listPlayHistory.mockResolvedValue({ items: [], nextCursor: null });
    renderWithProviders(<HistoryList />, { preloadedState: userState(testUser()) });
    expect(await screen.findByText('まだプレイ履歴はありません')).toBeInTheDocument();
  });

  it('says in Japanese when the history cannot be read', async () => {
    listPlayHistory.mockRejectedValue(new Error('boom'));
    renderWithProviders(<HistoryList />, { preloadedState: userState(testUser()) });
    expect(await screen.findByRole('alert')).toHaveTextContent('プレイ履歴を読み込めませんでした');
  });
});
