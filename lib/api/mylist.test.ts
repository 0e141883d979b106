/** @jest-environment node */
/**
 * lib/api/mylist.ts against a fetch double: wire → camelCase mapping, the bearer, methods, 404s,
 * and the screenshot pictures as blobs (the full PNG and the gallery's WebP thumbnail).
 */
import { titleWire } from '@/lib/mylist/testFixtures';
import { installFetchDouble } from '@/test/fetchDouble';
import { ApiClientError } from './client';
import { addBookmark, deleteScreenshot, fetchScreenshotImage, fetchScreenshotThumbnail, getBookmarked, getScreenshot, listBookmarks, listPlayHistory, listScreenshots, removeBookmark } from './mylist';

jest.mock('@/lib/firebase/client', () => ({
  firebaseAuth: () => ({ currentUser: { getIdToken: jest.fn(async () => 'token') } }),
}));

const { fetchMock, answer, call } = installFetchDouble();
const shot = { id: '3f2b8a52-1c4d-4e7f-9a10-0b1c2d3e4f50', game_id: 'g', session_id: 's', width: 1280, height: 720, bytes: 10, created_at: '2025-03-04T00:05:00.000Z' };

describe('my-list api', () => {
  it('lists bookmarks with the bearer, the cursor and the limit, mapped to GameSummary', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', bookmarks: [{ game_id: 'g', created_at: '2025-03-04T00:05:00Z', title: titleWire('g') }], next_cursor: 'c2' }));
    const page = await listBookmarks({ cursor: 'c1', limit: 5 });
    expect(call().url).toMatch(/\/v1\/mylist\/bookmarks\?cursor=c1&limit=5$/);
    expect(new Headers(call().init.headers).get('authorization')).toBe('Bearer token');
    expect(page).toEqual({ items: [{ gameId: 'g', createdAt: Date.UTC(2025, 2, 4, 0, 5), game: expect.objectContaining({ id: 'g', keyArt: '/games/g/keyart.png', brandId: 'b1' }) }], nextCursor: 'c2' });
  });

  it('reads, adds and removes one bookmark with GET, PUT and DELETE', async () => {
    fetchMock
      .mockReturnValueOnce(answer(200, { status: 'ok', game_id: 'g', bookmarked: false }))
      .mockReturnValueOnce(answer(200, { status: 'ok', game_id: 'g', bookmarked: true }))
      .mockReturnValueOnce(answer(200, { status: 'ok', game_id: 'g', bookmarked: false }));
    await expect(getBookmarked('g')).resolves.toBe(false);
    await expect(addBookmark('g')).resolves.toBe(true);
    await expect(removeBookmark('g')).resolves.toBe(false);
    expect([0, 1, 2].map((i) => call(i).init.method)).toEqual(['GET', 'PUT', 'DELETE']);
    expect(call(1).url).toMatch(/\/v1\/mylist\/bookmarks\/g$/);
  });

  it('treats removing a bookmark that is already gone as done, but passes other errors on', async () => {
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'bookmark_not_found', message: 'x' } }));
    await expect(removeBookmark('g')).resolves.toBe(false);
    fetchMock.mockReturnValueOnce(answer(403, { status: 'error', error: { code: 'verified_required', message: '会員登録が必要です' } }));
    await expect(addBookmark('g')).rejects.toMatchObject({ code: 'verified_required', httpStatus: 403, userMessage: '会員登録が必要です' });
  });

  it('maps the play history (times, counts) and rejects a malformed answer', async () => {
    fetchMock.mockReturnValueOnce(
      answer(200, { status: 'ok', histories: [{ game_id: 'g', title: titleWire('g'), last_played_at: '2025-03-04T00:05:00Z', total_seconds: 5000, play_count: 3 }], next_cursor: null }),
    );
    await expect(listPlayHistory()).resolves.toEqual({
      items: [{ gameId: 'g', game: expect.objectContaining({ title: 'タイトルg' }), lastPlayedAt: Date.UTC(2025, 2, 4, 0, 5), totalSeconds: 5000, playCount: 3 }],
      nextCursor: null,
    });
    expect(call().url).toMatch(/\/v1\/mylist\/history$/);
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', histories: [{ game_id: 'g', title: titleWire('g'), last_played_at: 'yesterday', total_seconds: 1, play_count: 1 }], next_cursor: null }));
    await expect(listPlayHistory()).rejects.toMatchObject({ code: 'bad_response' });
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', histories: 'none', next_cursor: null }));
    await expect(listPlayHistory()).rejects.toBeInstanceOf(ApiClientError);
  });

  it('lists, reads and deletes screenshots', async () => {
    fetchMock
      .mockReturnValueOnce(answer(200, { status: 'ok', screenshots: [shot], next_cursor: null }))
      .mockReturnValueOnce(answer(200, { status: 'ok', screenshot: shot }))
      .mockReturnValueOnce(answer(200, { status: 'ok' }));
    const page = await listScreenshots({ limit: 24 });
    expect(page.items[0]).toEqual({ id: shot.id, gameId: 'g', sessionId: 's', width: 1280, height: 720, bytes: 10, createdAt: Date.UTC(2025, 2, 4, 0, 5) });
    expect(call(0).url).toMatch(/\/v1\/screenshots\?limit=24$/);
    await expect(getScreenshot(shot.id)).resolves.toMatchObject({ id: shot.id });
    await deleteScreenshot(shot.id);
    expect(call(2).init.method).toBe('DELETE');
  });

  it('turns another user’s screenshot (404) into screenshot_not_found', async () => {
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'screenshot_not_found', message: 'スクリーンショットが見つかりません。' } }));
    await expect(getScreenshot(shot.id)).rejects.toMatchObject({ code: 'screenshot_not_found', httpStatus: 404 });
  });

  it('fetches the image with the bearer as a blob, and names its failures in Japanese', async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(new Uint8Array([137, 80, 78, 71]), { status: 200, headers: { 'content-type': 'image/png' } })));
    const blob = await fetchScreenshotImage(shot.id);
    expect(blob.size).toBe(4);
    expect(call().url).toMatch(new RegExp(`/v1/screenshots/${shot.id}/image$`));
    expect(new Headers(call().init.headers).get('authorization')).toBe('Bearer token');
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'screenshot_not_found', message: 'x' } }));
    await expect(fetchScreenshotImage(shot.id)).rejects.toMatchObject({ code: 'screenshot_not_found' });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(fetchScreenshotImage(shot.id)).rejects.toMatchObject({ code: 'network', userMessage: expect.stringMatching(/画像/) });
  });

  it('fetches the thumbnail from its own route, with the bearer, and reads a 404 the same way', async () => {
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response(new Uint8Array([82, 73, 70, 70, 0]), { status: 200, headers: { 'content-type': 'image/webp' } })));
    const blob = await fetchScreenshotThumbnail(shot.id);
    expect(blob.size).toBe(5);
    expect(call().url).toMatch(new RegExp(`/v1/screenshots/${shot.id}/thumbnail$`));
    expect(new Headers(call().init.headers).get('authorization')).toBe('Bearer token');
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'screenshot_not_found', message: 'x' } }));
    await expect(fetchScreenshotThumbnail(shot.id)).rejects.toMatchObject({ code: 'screenshot_not_found', httpStatus: 404 });
  });
});
