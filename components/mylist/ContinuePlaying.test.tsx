import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { gameSummary, history, testUser, userState } from '@/lib/mylist/testFixtures';
import { ContinuePlaying } from './ContinuePlaying';

const listPlayHistory = jest.fn();
jest.mock('@/lib/api/mylist', () => ({ listPlayHistory: (...a: unknown[]) => listPlayHistory(...a) }));

beforeEach(() => listPlayHistory.mockReset());

const item = (id: string) => ({ gameId: id, game: gameSummary(id), lastPlayedAt: Date.UTC(2025, 2, 4, 0, 5), totalSeconds: 600, playCount: 2 });

describe('ContinuePlaying', () => {
  it('loads the history into the store and shows 「続きから遊ぶ」 with links to play', async () => {
    listPlayHistory.mockResolvedValue({ items: [item('a'), item('b')], nextCursor: null });
    const { store } = renderWithProviders(<ContinuePlaying />, { preloadedState: userState(testUser()) });
    expect(await screen.findByText('続きから遊ぶ')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'タイトルa' })).toHaveAttribute('href', '/play/a');
    expect(screen.getAllByText('最終プレイ 2025年3月4日 09:05')).toHaveLength(2);
    expect(store.getState().user.playHistories.map((h) => h.gameId)).toEqual(['a', 'b']);
  });

  it('renders nothing for a verified user without history', async () => {
    listPlayHistory.mockResolvedValue({ items: [], nextCursor: null });
    const { container } = renderWithProviders(<ContinuePlaying />, { preloadedState: userState(testUser()) });
    await waitFor(() => expect(listPlayHistory).toHaveBeenCalled());
    expect(container).toBeEmptyDOMElement();
  });

  it('renders nothing for a visitor, even with a stale history in the store, and loads nothing', () => {
    const { container } = renderWithProviders(<ContinuePlaying />, { preloadedState: userState(testUser({ isAnonymous: true }), [history('a')]) });
    expect(container).toBeEmptyDOMElement();
    expect(listPlayHistory).not.toHaveBeenCalled();
  });
});
