import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ApiClientError } from '@/lib/api/client';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import { BookmarkToggle } from './BookmarkToggle';

const api = { getBookmarked: jest.fn(), addBookmark: jest.fn(), removeBookmark: jest.fn() };
jest.mock('@/lib/api/mylist', () => ({
  getBookmarked: (...a: unknown[]) => api.getBookmarked(...a),
  addBookmark: (...a: unknown[]) => api.addBookmark(...a),
  removeBookmark: (...a: unknown[]) => api.removeBookmark(...a),
}));
const track = jest.fn();
jest.mock('@/lib/analytics', () => ({ track: (...a: unknown[]) => track(...a) }));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  track.mockReset();
});

const button = () => screen.getByTestId('bookmark-toggle');

describe('BookmarkToggle', () => {
  it('reads the state, then shows 「ブックマーク済み」 pressed', async () => {
    api.getBookmarked.mockResolvedValue(true);
    renderWithProviders(<BookmarkToggle gameId="g1" title="夢" />, { preloadedState: userState(testUser()) });
    expect(button()).toBeDisabled();
    await waitFor(() => expect(button()).toHaveTextContent('ブックマーク済み'));
    expect(button()).toHaveAttribute('aria-pressed', 'true');
    expect(api.getBookmarked).toHaveBeenCalledWith('g1');
  });

  it('adds optimistically and tracks the bookmark event', async () => {
    api.getBookmarked.mockResolvedValue(false);
    let resolve: (v: boolean) => void = () => undefined;
    api.addBookmark.mockReturnValue(new Promise<boolean>((r) => (resolve = r)));
    renderWithProviders(<BookmarkToggle gameId="g1" title="夢" />, { preloadedState: userState(testUser()) });
    await waitFor(() => expect(button()).toBeEnabled());
    expect(button()).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(button());
    expect(button()).toHaveAttribute('aria-pressed', 'true');
    expect(button()).toHaveTextContent('ブックマーク済み');
    expect(track).not.toHaveBeenCalled();
    await act(async () => resolve(true));
    expect(track).toHaveBeenCalledWith('bookmark', { gameId: 'g1', action: 'add' });
  });

  it('rolls back and shows a Japanese toast when the server refuses', async () => {
    api.getBookmarked.mockResolvedValue(true);
    api.removeBookmark.mockRejectedValue(new ApiClientError('network', 0, '通信に失敗しました。'));
    const { store } = renderWithProviders(<BookmarkToggle gameId="g1" title="夢" />, { preloadedState: userState(testUser()) });
    await waitFor(() => expect(button()).toHaveAttribute('aria-pressed', 'true'));
    fireEvent.click(button());
    expect(button()).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(button()).toHaveAttribute('aria-pressed', 'true'));
    expect(store.getState().toast.stack).toEqual([expect.objectContaining({ node: 'error', props: { message: '通信に失敗しました。' } })]);
    expect(track).not.toHaveBeenCalled();
  });

  it.each([
    ['an anonymous visitor', testUser({ isAnonymous: true })],
    ['no user', null],
  ])('opens the login modal for %s, without calling the api', (_, user) => {
    const { store } = renderWithProviders(<BookmarkToggle gameId="g1" title="夢" />, { preloadedState: userState(user) });
    expect(button()).toHaveTextContent('ブックマーク');
    expect(button()).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(button());
    expect(store.getState().modal.node).toBe('login');
    expect(api.getBookmarked).not.toHaveBeenCalled();
    expect(api.addBookmark).not.toHaveBeenCalled();
  });

  it('waits (disabled) before the first auth report', () => {
    renderWithProviders(<BookmarkToggle gameId="g1" title="夢" />, { preloadedState: userState(undefined) });
    expect(button()).toBeDisabled();
  });
});
