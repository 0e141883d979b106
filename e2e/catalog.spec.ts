import { expect, test, type Page } from '@playwright/test';
import { waitForAuth } from './support/session';

/**
 * Catalogue journeys against the real stack (api on PostgreSQL seeded from games/ and
 * content/magazine). The katakana title is an all-ages one; the age-rated one (桜色シグナル)
 * stays hidden until the visitor answers 「18歳以上ですか？」 with はい.
 */
const KATAKANA = { id: 'amayadori-cafe', title: 'アマヤドリ・カフェ', hiragana: 'あまやどり' };
const ADULT = { id: 'sakurairo-signal', title: '桜色シグナル', query: 'さくらいろ' };
/** The Ren'Py sample game (issue 15): a free title another runtime plays, shown with its licence. */
const RENPY = { id: 'the-question', title: 'The Question', queries: ['ざ・くえすちょん', 'クエスチョン', "Ren'Py"] };

const card = (page: Page, id: string) => page.locator(`[data-testid="game-card"][data-game-id="${id}"]`);

/** Analytics events from the local sink (console lines "[analytics] {...}"). */
function collectAnalytics(page: Page) {
  const events: { name: string; [k: string]: unknown }[] = [];
  page.on('console', (m) => {
    const text = m.text();
    if (text.startsWith('[analytics]')) events.push(JSON.parse(text.slice('[analytics]'.length)));
  });
  return events;
}

test('home renders the featured title and its rows, the magazine linked', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('featured-title')).toBeVisible();
  await expect(page.getByTestId('row-new').getByTestId('game-card').first()).toBeVisible();
  await expect(page.getByTestId('row-popular').getByTestId('game-card').first()).toBeVisible();
  await expect(page.getByTestId('row-genre').first()).toBeVisible();
  await expect(page.getByTestId('row-magazine').getByTestId('article-card').first()).toBeVisible();
  // Key art goes through the image optimiser (WebP, quality 75).
  const src = await page.getByTestId('featured-title').locator('img').first().getAttribute('src');
  expect(src).toMatch(/^\/_next\/image\?url=.*&q=75$/);
  const img = await page.request.get(src!, { headers: { accept: 'image/webp,*/*' } });
  expect(img.headers()['content-type']).toBe('image/webp');
});

test('the footer links and a row\'s "もっと見る" are at least 24 px to tap (WCAG 2.5.8)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('row-new').getByTestId('game-card').first()).toBeVisible();
  const more = page.getByRole('link', { name: 'もっと見る' });
  expect(await more.count()).toBeGreaterThan(0);
  const footer = page.getByRole('navigation', { name: 'フッター' }).getByRole('link');
  expect(await footer.count()).toBeGreaterThan(0);
  for (const link of [...(await more.all()), ...(await footer.all())]) {
    await link.scrollIntoViewIfNeeded();
    const box = (await link.boundingBox())!;
    expect(box.height, `${await link.textContent()} is ${box.height} px tall`).toBeGreaterThanOrEqual(24);
  }
});

test('a search in hiragana finds the title written in katakana, as you type and server-rendered', async ({ page }) => {
  const events = collectAnalytics(page);
  await page.goto('/search');
  await waitForAuth(page);
  await expect(page.getByTestId('empty-state')).toContainText('タイトル名・ブランド・タグで検索できます');
  await page.getByTestId('search-input').fill(KATAKANA.hiragana);
  await expect(card(page, KATAKANA.id)).toBeVisible();
  await expect(card(page, KATAKANA.id)).toContainText(KATAKANA.title);
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(KATAKANA.hiragana)}`);
  await expect.poll(() => events.some((e) => e.name === 'search' && e.search_term === KATAKANA.hiragana)).toBe(true);

  // The same URL opened directly is rendered on the server.
  const html = await (await page.request.get(`/search?q=${encodeURIComponent(KATAKANA.hiragana)}`)).text();
  expect(html).toContain(KATAKANA.title);

  await page.getByTestId('search-input').fill('そんなタイトルはありません');
  await expect(page.getByTestId('empty-state')).toContainText('に一致するタイトルは見つかりませんでした');
});

test('a crafted query (a NUL, bytes that are not UTF-8) is cleaned out of the heading and the title', async ({ page }) => {
  for (const q of ['%00', '%E0%A4']) {
    await page.goto(`/search?q=${q}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('検索');
    await expect(page.getByTestId('empty-state')).toContainText('タイトル名・ブランド・タグで検索できます');
    expect(await page.title()).not.toMatch(/[\u0000\uFFFD]/);
  }
  await page.goto(`/search?q=%E0%A4${encodeURIComponent(KATAKANA.hiragana)}%00`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`「${KATAKANA.hiragana}」の検索結果`);
  await expect(card(page, KATAKANA.id)).toBeVisible();
});

test('an age-rated title stays hidden in lists and search until the visitor confirms their age', async ({ page }) => {
  // Server HTML never carries the age-rated art at a visible size, whatever the device answered.
  const titleHtml = await (await page.request.get(`/title/${ADULT.id}`)).text();
  expect(titleHtml).toContain('18歳以上ですか？');
  expect(titleHtml).not.toMatch(new RegExp(`sakurairo-signal%2Fkeyart\\.png&amp;w=(?!16&|32&)\\d+`));

  await page.goto(`/search?q=${encodeURIComponent(ADULT.query)}`);
  await waitForAuth(page);
  await expect(page.getByTestId('hidden-titles-notice')).toBeVisible();
  await expect(card(page, ADULT.id)).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByTestId('row-new')).toBeVisible();
  await expect(card(page, ADULT.id)).toHaveCount(0);

  // The title page blurs the art behind the question; はい shows it, and the title everywhere.
  await page.goto(`/title/${ADULT.id}`);
  await waitForAuth(page);
  await expect(page.getByTestId('gated-image').first()).toBeVisible();
  await expect(page.getByRole('img', { name: `${ADULT.title}のキービジュアル` })).toHaveCount(0);
  await expect(page.getByTestId('play-needs-age')).toBeVisible();
  await page.getByTestId('age-gate-yes').click();
  await expect(page.getByRole('img', { name: `${ADULT.title}のキービジュアル` })).toBeVisible();
  await expect(page.getByTestId('gated-image')).toHaveCount(0);
  await expect(page.getByTestId('play-button')).toBeVisible();

  await page.goto(`/search?q=${encodeURIComponent(ADULT.query)}`);
  await expect(card(page, ADULT.id)).toBeVisible();
  await page.goto('/');
  await expect(card(page, ADULT.id).first()).toBeVisible();
});

test('いいえ keeps the age-rated title hidden', async ({ page }) => {
  await page.goto(`/title/${ADULT.id}`);
  await waitForAuth(page);
  await page.getByTestId('age-gate-no').click();
  await expect(page.getByTestId('age-gate-declined')).toContainText('18歳未満の方はご覧いただけません');
  await page.goto(`/search?q=${encodeURIComponent(ADULT.query)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(card(page, ADULT.id)).toHaveCount(0);
  await expect(page.getByTestId('hidden-titles-notice')).toHaveCount(0);
});

test('the title page shows its details, screenshots, related titles and a correct X share link', async ({ page }) => {
  await page.goto(`/title/${KATAKANA.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(KATAKANA.title);
  await expect(page.getByTestId('title-description')).toContainText('日常ミステリー');
  await expect(page.getByTestId('brand-link')).toHaveAttribute('href', /^\/brand#.+/);
  const tag = page.getByTestId('tags').getByRole('link').first();
  await expect(tag).toHaveAttribute('href', /^\/search\?q=/);
  await expect(page.getByTestId('age-badge').first()).toHaveText('全年齢');
  await expect(page.getByTestId('screenshots').locator('img').first()).toBeVisible();
  await expect(page.getByTestId('related-titles').getByTestId('game-card').first()).toBeVisible();
  await expect(page.getByTestId('bookmark-toggle')).toBeVisible();

  const share = page.getByTestId('share-x');
  const href = new URL((await share.getAttribute('href'))!);
  expect(`${href.origin}${href.pathname}`).toBe('https://twitter.com/intent/tweet');
  expect(href.searchParams.get('text')).toBe(KATAKANA.title);
  expect(href.searchParams.get('url')).toMatch(new RegExp(`^https?://[^/]+/title/${KATAKANA.id}$`));
  await expect(share).toHaveAttribute('target', '_blank');
  await expect(share).toHaveAttribute('rel', /noopener/);

  // The brand link leads to the brand's anchor on /brand.
  await page.getByTestId('brand-link').click();
  await expect(page).toHaveURL(/\/brand#.+/);
  await expect(card(page, KATAKANA.id)).toBeVisible();
});

test('"The Question" (Ren\'Py) is found by its reading, in katakana and by its brand; its page shows its licence', async ({ page }) => {
  for (const q of RENPY.queries) {
    await page.goto(`/search?q=${encodeURIComponent(q)}`);
    await expect(card(page, RENPY.id), q).toBeVisible();
    await expect(card(page, RENPY.id)).toContainText(RENPY.title);
  }
  await card(page, RENPY.id).click();
  await expect(page).toHaveURL(`/title/${RENPY.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(RENPY.title);
  await expect(page.getByTestId('title-description')).toContainText('シルビー');
  await expect(page.getByTestId('screenshots').locator('img')).toHaveCount(4);
  await expect(page.getByRole('img', { name: `${RENPY.title}のキービジュアル` })).toBeVisible();
  const license = page.getByTestId('title-license');
  await expect(license).toBeVisible();
  await expect(page.getByTestId('license-copyright')).toHaveText('© 2004-2022 Tom Rothamel and contributors');
  await expect(license.getByRole('list', { name: 'クレジット' }).getByRole('listitem')).toHaveCount(6);
  await expect(license).toContainText('Expat (MIT)');
  // the permission notice, folded and opened on demand
  await license.getByText('ライセンス全文（英語の原文）').click();
  await expect(page.getByTestId('license-text')).toContainText('Permission is hereby granted, free of charge');
  await expect(page.getByTestId('license-text')).toContainText('The above copyright notice and this permission notice shall be included');
  // our own titles show none
  await page.goto(`/title/${KATAKANA.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(KATAKANA.title);
  await expect(page.getByTestId('title-license')).toHaveCount(0);
});

test('magazine: the list links to the article, which links its titles', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('row-magazine').getByRole('link', { name: '記事をすべて見る' }).click();
  await expect(page).toHaveURL(/\/magazine$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('マガジン');
  const first = page.getByTestId('article-card').first();
  const slug = await first.getAttribute('data-slug');
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/magazine/${slug}$`));
  await expect(page.getByTestId('article-body').locator('h2').first()).toBeVisible();
  await expect(page.getByTestId('article-titles').getByTestId('game-card').first()).toBeVisible();
  const res = await page.request.get('/magazine/no-such-article');
  expect(res.status()).toBe(404);
});

test('a catalogue page’s first-load scripts carry V8’s compile hint', async ({ request }) => {
  // docs/web-performance.md: scripts/stack/compile-hints.ts marks every page's first-load scripts
  // after the build (which ones: its unit test). They are the scripts the server's HTML names:
  // the boot gate's list (lib/security/bootGate.ts) and any `<script src>`.
  for (const path of [`/title/${KATAKANA.id}`, '/search', '/']) {
    const html = await (await request.get(path)).text();
    const listed = JSON.parse(/<script id="__yc_boot" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? '[]') as string[];
    const tagged = [...html.matchAll(/<script[^>]* src="(\/_next\/static\/chunks\/[^"]+\.js)"/g)].map((m) => m[1]);
    const first = [...listed, ...tagged].filter((src) => src.startsWith('/_next/static/chunks/'));
    expect(first.length).toBeGreaterThan(3);
    for (const src of first) expect((await (await request.get(src)).text()).startsWith('//# allFunctionsCalledOnLoad\n'), `${path}: ${src}`).toBe(true);
  }
});
