/**
 * The screenshot gallery and viewer with the api mocked: tiles load the WebP thumbnail and the
 * viewer the full PNG, object URLs are revoked, not-found states, download name, delete flow.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ApiClientError } from '@/lib/api/client';
import { gameSummary, testUser, userState } from '@/lib/mylist/testFixtures';
import { ScreenshotGallery } from './ScreenshotGallery';
import { ScreenshotViewer } from './ScreenshotViewer';

const api = {
  listScreenshots: jest.fn(),
  getScreenshot: jest.fn(),
  deleteScreenshot: jest.fn(),
  fetchScreenshotImage: jest.fn(),
  fetchScreenshotThumbnail: jest.fn(),
};
jest.mock('@/lib/api/mylist', () => ({
  listScreenshots: (...a: unknown[]) => api.listScreenshots(...a),
  getScreenshot: (...a: unknown[]) => api.getScreenshot(...a),
  deleteScreenshot: (...a: unknown[]) => api.deleteScreenshot(...a),
  fetchScreenshotImage: (...a: unknown[]) => api.fetchScreenshotImage(...a),
  fetchScreenshotThumbnail: (...a: unknown[]) => api.fetchScreenshotThumbnail(...a),
}));
jest.mock('@/lib/catalog/useGameList', () => ({ useGameList: () => [gameSummary('g')] }));
const push = jest.fn(() => Promise.resolve(true));
jest.mock('next/router', () => ({ useRouter: () => ({ push, asPath: '/' }) }));

const ID = '3f2b8a52-1c4d-4e7f-9a10-0b1c2d3e4f50';
const shot = (id = ID) => ({ id, gameId: 'g', sessionId: 's', width: 1280, height: 720, bytes: 10, createdAt: Date.UTC(2025, 2, 3, 23, 5) });
const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  push.mockClear();
  created.length = 0;
  revoked.length = 0;
  api.fetchScreenshotImage.mockResolvedValue(new Blob([new Uint8Array([1])], { type: 'image/png' }));
  api.fetchScreenshotThumbnail.mockResolvedValue(new Blob([new Uint8Array([2])], { type: 'image/webp' }));
  URL.createObjectURL = jest.fn(() => {
    created.push(`blob:${created.length}`);
    return created[created.length - 1];
  });
  URL.revokeObjectURL = jest.fn((u: string) => void revoked.push(u));
});

const verified = { preloadedState: userState(testUser()) };

describe('screenshot gallery', () => {
  it('shows thumbnails from object URLs with the title name, and revokes them on unmount', async () => {
    api.listScreenshots.mockResolvedValue({ items: [shot()], nextCursor: null });
    const { unmount } = renderWithProviders(<ScreenshotGallery />, verified);
    const tile = await screen.findByTestId('screenshot-tile');
    expect(tile).toHaveAttribute('href', `/mylist/screenshot/${ID}`);
    expect(tile).toHaveTextContent('タイトルg');
    const img = await screen.findByAltText('タイトルgのスクリーンショット（2025年3月4日 08:05）');
    expect(img).toHaveAttribute('src', 'blob:0');
    unmount();
    expect(revoked).toEqual(['blob:0']);
  });

  it('asks for the small thumbnail of each tile, never the full PNG', async () => {
    const other = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    api.listScreenshots.mockResolvedValue({ items: [shot(), shot(other)], nextCursor: null });
    renderWithProviders(<ScreenshotGallery />, verified);
    await waitFor(() => expect(screen.getAllByTestId('screenshot-image').map((frame) => frame.querySelector('img'))).not.toContain(null));
    expect(api.fetchScreenshotThumbnail.mock.calls.map(([id]) => id).sort()).toEqual([ID, other].sort());
    expect(api.fetchScreenshotImage).not.toHaveBeenCalled();
  });

  it('has an honest empty state and a Japanese failure with retry', async () => {
    api.listScreenshots.mockResolvedValueOnce({ items: [], nextCursor: null });
    renderWithProviders(<ScreenshotGallery />, verified);
    expect(await screen.findByText('まだスクリーンショットはありません')).toBeInTheDocument();
  });

  it('retries after a failure', async () => {
    api.listScreenshots.mockRejectedValueOnce(new ApiClientError('network', 0, '通信に失敗しました。')).mockResolvedValueOnce({ items: [shot()], nextCursor: null });
    renderWithProviders(<ScreenshotGallery />, verified);
    expect(await screen.findByRole('alert')).toHaveTextContent('通信に失敗しました。');
    fireEvent.click(screen.getByRole('button', { name: 'もう一度読み込む' }));
    expect(await screen.findByTestId('screenshot-tile')).toBeInTheDocument();
  });
});

describe('screenshot viewer', () => {
  it('says 「見つかりません」 for a malformed id without asking the api', () => {
    renderWithProviders(<ScreenshotViewer id="../etc" />, verified);
    expect(screen.getByTestId('screenshot-not-found')).toBeInTheDocument();
    expect(api.getScreenshot).not.toHaveBeenCalled();
  });

  it('says 「見つかりません」 for another user’s screenshot (404)', async () => {
    api.getScreenshot.mockRejectedValue(new ApiClientError('screenshot_not_found', 404, 'x'));
    renderWithProviders(<ScreenshotViewer id={ID} />, verified);
    expect(await screen.findByText('スクリーンショットが見つかりません')).toBeInTheDocument();
  });

  it('offers a download named <gameId>-<date>.png', async () => {
    api.getScreenshot.mockResolvedValue(shot());
    renderWithProviders(<ScreenshotViewer id={ID} />, verified);
    await waitFor(() => expect(screen.getByTestId('screenshot-download')).toHaveAttribute('href', 'blob:0'));
    expect(screen.getByTestId('screenshot-download')).toHaveAttribute('download', 'g-20250304-080500.png');
  });

  it('shows, downloads and shares the full-resolution PNG, not the thumbnail', async () => {
    api.getScreenshot.mockResolvedValue(shot());
    renderWithProviders(<ScreenshotViewer id={ID} />, verified);
    await waitFor(() => expect(screen.getByTestId('screenshot-download')).toHaveAttribute('href', 'blob:0'));
    expect(api.fetchScreenshotImage).toHaveBeenCalledWith(ID, expect.any(AbortSignal));
    expect(api.fetchScreenshotThumbnail).not.toHaveBeenCalled();
    expect((URL.createObjectURL as jest.Mock).mock.calls[0][0]).toMatchObject({ type: 'image/png' });
    expect(screen.getByTestId('screenshot-image').querySelector('img')).toHaveAttribute('src', 'blob:0');
  });

  it('deletes only after confirming, then returns to the gallery with a toast', async () => {
    api.getScreenshot.mockResolvedValue(shot());
    api.deleteScreenshot.mockResolvedValue(undefined);
    const { store } = renderWithProviders(<ScreenshotViewer id={ID} />, verified);
    fireEvent.click(await screen.findByTestId('screenshot-delete'));
    expect(api.deleteScreenshot).not.toHaveBeenCalled();
    expect(screen.getByTestId('delete-confirm')).toHaveTextContent('削除しますか');
    await act(async () => {
      fireEvent.click(screen.getByTestId('delete-confirm-yes'));
    });
    expect(api.deleteScreenshot).toHaveBeenCalledWith(ID);
    expect(push).toHaveBeenCalledWith('/mylist/screenshot');
    expect(store.getState().toast.stack[0]).toMatchObject({ node: 'success', props: { message: 'スクリーンショットを削除しました。' } });
  });

  it('keeps the screenshot and says why when the delete fails', async () => {
    api.getScreenshot.mockResolvedValue(shot());
    api.deleteScreenshot.mockRejectedValue(new ApiClientError('network', 0, '通信に失敗しました。'));
    const { store } = renderWithProviders(<ScreenshotViewer id={ID} />, verified);
    fireEvent.click(await screen.findByTestId('screenshot-delete'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('delete-confirm-yes'));
    });
    expect(push).not.toHaveBeenCalled();
    expect(store.getState().toast.stack[0]).toMatchObject({ node: 'error', props: { message: '通信に失敗しました。' } });
  });
});
