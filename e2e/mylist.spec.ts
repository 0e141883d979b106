import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified, waitForAuth } from './support/session';
import { api, waitForVideo } from './support/play';

/**
 * My list against the real stack (api + PostgreSQL + emulator + game host): bookmarks from a title
 * page, the play history written when a session ends, and screenshots taken while playing.
 * Every test signs in a fresh user, so no list (and no instance_limit) leaks between tests.
 */

const BOOKMARKED = { id: 'hoshifuru-toshokan', title: '星降る図書館' };
const PLAYED = { id: 'shizuka-no-umi-postman', title: 'しずかの海のポストマン' };

/** Opens `path` until `locator` shows: the server writes the history when the session ends. */
async function openUntilVisible(page: Page, path: string, testId: string, hasText: string) {
  await expect(async () => {
    await page.goto(path);
    await expect(page.getByTestId(testId).filter({ hasText })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

test('bookmark on a title page → it appears in my list → remove it', async ({ page }) => {
  const user = await loginAsVerified(page);
  await page.goto(`/title/${BOOKMARKED.id}`);
  const toggle = page.getByTestId('bookmark-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toHaveText(/ブックマーク済み/);
  await expect.poll(async () => (await api<{ bookmarked: boolean }>(`/v1/mylist/bookmarks/${BOOKMARKED.id}`, user.idToken)).body.bookmarked).toBe(true);

  // The overview shows it, and so does the bookmark page.
  await page.goto('/mylist');
  await expect(page.getByTestId('overview-bookmarks').getByRole('link', { name: BOOKMARKED.title })).toBeVisible();
  await page.getByRole('navigation', { name: 'マイリストのメニュー' }).getByRole('link', { name: 'ブックマーク' }).click();
  await page.waitForURL(/\/mylist\/bookmark$/);
  const item = page.getByTestId('bookmark-item').filter({ hasText: BOOKMARKED.title });
  await expect(item).toBeVisible();

  // Remove it: gone from the page and from the api, with an honest empty state.
  await item.getByRole('button', { name: `「${BOOKMARKED.title}」のブックマークを解除` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'ブックマークを解除しました' })).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(page.getByText('まだブックマークはありません')).toBeVisible();
  expect((await api<{ bookmarks: unknown[] }>('/v1/mylist/bookmarks', user.idToken)).body.bookmarks).toHaveLength(0);

  // Back on the title page the toggle reads the server's state again.
  await page.goto(`/title/${BOOKMARKED.id}`);
  await expect(page.getByTestId('bookmark-toggle')).toHaveAttribute('aria-pressed', 'false');
});

test('a visitor who presses the bookmark button is asked to sign in', async ({ page }) => {
  await page.goto(`/title/${BOOKMARKED.id}`);
  await waitForAuth(page);
  await page.getByTestId('bookmark-toggle').click();
  await expect(page.getByTestId('login-modal')).toBeVisible();
});

test('an unknown or malformed screenshot id shows a Japanese not-found message (the api answers a foreign id the same 404)', async ({ page }) => {
  await loginAsVerified(page);
  await page.goto('/mylist/screenshot/3f2b8a52-1c4d-4e7f-9a10-0b1c2d3e4f50');
  await expect(page.getByTestId('screenshot-not-found')).toBeVisible();
  await page.goto('/mylist/screenshot/not-an-id');
  await expect(page.getByTestId('screenshot-not-found')).toBeVisible();
});

test.describe('after playing', () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'desktop', 'streamed games run once, on desktop');
  });

  test('play with a screenshot → exit → history shows the title; the screenshot opens, then is deleted', async ({ page }) => {
    test.setTimeout(150_000);
    const user = await createVerifiedUser();
    await loginAsVerified(page, user);
    await page.goto('/mylist');
    await expect(page.getByTestId('overview-history').getByText('まだプレイ履歴はありません')).toBeVisible();

    // One play: a few lines, a screenshot, exit.
    await page.goto(`/play/${PLAYED.id}`);
    await waitForVideo(page);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(1_500);
    await page.getByTestId('screenshot').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'スクリーンショットを保存しました' })).toBeVisible();
    await page.getByTestId('exit').click();
    await page.waitForURL(new RegExp(`/title/${PLAYED.id}$`));

    // History: title, Japanese date, total time, play count, continue button.
    await openUntilVisible(page, '/mylist/history', 'history-item', PLAYED.title);
    const line = page.getByTestId('history-item').filter({ hasText: PLAYED.title });
    await expect(line).toContainText(/最終プレイ \d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}/);
    await expect(line).toContainText(/合計 (1分未満|\d+分)/);
    await expect(line).toContainText('プレイ回数 1回');
    await expect(line.getByTestId('continue-button')).toHaveAttribute('href', `/play/${PLAYED.id}`);

    // Home's "continue playing" row has it too.
    await page.goto('/');
    await expect(page.getByTestId('continue-playing').getByRole('link', { name: PLAYED.title })).toHaveAttribute('href', `/play/${PLAYED.id}`);

    // Gallery: the tile shows the server's 320×180 WebP thumbnail, fetched with the bearer (an object URL).
    await page.goto('/mylist/screenshot');
    const tile = page.getByTestId('screenshot-tile');
    await expect(tile).toHaveCount(1);
    await expect(tile.locator('img')).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => tile.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await tile.click();
    await page.waitForURL(/\/mylist\/screenshot\/[0-9a-f-]{36}$/);

    // Viewer: the full-resolution PNG, download name, then delete after confirming.
    const viewer = page.getByTestId('screenshot-viewer');
    await expect(viewer).toContainText(PLAYED.title);
    await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    await expect(page.getByTestId('screenshot-download')).toHaveAttribute('download', new RegExp(`^${PLAYED.id}-\\d{8}-\\d{6}\\.png$`));
    const download = page.waitForEvent('download');
    await page.getByTestId('screenshot-download').click();
    expect((await download).suggestedFilename()).toMatch(new RegExp(`^${PLAYED.id}-\\d{8}-\\d{6}\\.png$`));
    await page.getByTestId('screenshot-delete').click();
    await page.getByTestId('delete-confirm-yes').click();
    await page.waitForURL(/\/mylist\/screenshot$/);
    await expect(page.getByTestId('toast').filter({ hasText: 'スクリーンショットを削除しました' })).toBeVisible();
    await expect(page.getByText('まだスクリーンショットはありません')).toBeVisible();
    expect((await api<{ screenshots: unknown[] }>('/v1/screenshots', user.idToken)).body.screenshots).toHaveLength(0);
  });
});
