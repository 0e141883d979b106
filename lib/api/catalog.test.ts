/** @jest-environment node */
import type { TitleWire } from '@/lib/api-types/schemas/catalog';
import { ApiClientError } from './client';
import { CATALOG_MESSAGES, catalogBaseUrl, catalogErrorMessage, fetchArticle, fetchArticles, fetchBrands, fetchHome, fetchTitle, fetchTitles, searchCatalog } from './catalog';

const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  (global as unknown as { fetch: typeof fetch }).fetch = fetchMock;
  process.env.API_URL = 'http://api.internal:9000/';
});

const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
const ok = (body: object) => answer(200, { status: 'ok', ...body });

const wire = (id: string, over: Partial<TitleWire> = {}): TitleWire => ({
  id,
  title: `タイトル${id}`,
  reading: 'たいとる',
  brand_id: 'yunagi',
  brand: '夕凪ソフト',
  description: '説明\n二行目',
  tags: ['夏'],
  genres: ['学園・青春'],
  release_date: '2026-08-31',
  age_rating: 'all',
  key_art: `/games/${id}/keyart.png`,
  plays: 3,
  premium: false,
  ...over,
});

const urlOf = (call = 0) => new URL(String(fetchMock.mock.calls[call][0]));

describe('catalogue client', () => {
  it('uses the server-side API_URL on the Next.js server, without a bearer', async () => {
    expect(catalogBaseUrl()).toBe('http://api.internal:9000');
    fetchMock.mockReturnValueOnce(ok({ titles: [wire('a')], next_cursor: 'c2' }));
    await fetchTitles({ sort: 'popular', genre: '恋愛', limit: 5, cursor: 'c1' });
    const url = urlOf();
    expect(url.origin).toBe('http://api.internal:9000');
    expect(url.pathname).toBe('/v1/catalog/titles');
    expect(Object.fromEntries(url.searchParams)).toEqual({ sort: 'popular', genre: '恋愛', limit: '5', cursor: 'c1' });
    expect(new Headers(fetchMock.mock.calls[0][1].headers).get('authorization')).toBeNull();
  });

  it('maps the home answer to camelCase, featured included', async () => {
    fetchMock.mockReturnValueOnce(
      ok({
        featured: wire('f', { age_rating: 'r18' }),
        new_titles: [wire('n')],
        popular: [wire('p', { plays: 9 })],
        genres: [{ genre: '恋愛', titles: [wire('g')] }],
        articles: [{ slug: 's', title: '記事', lead: 'リード', published_at: '2026-09-01', author: '編集部', game_ids: ['g'], tags: ['特集'], cover: '/c.png', age_rating: 'all' }],
      }),
    );
    const home = await fetchHome();
    expect(home.featured).toMatchObject({ id: 'f', ageRating: 'r18', brandId: 'yunagi', releaseDate: '2026-08-31', keyArt: '/games/f/keyart.png' });
    expect(home.newTitles.map((t) => t.id)).toEqual(['n']);
    expect(home.popular[0].plays).toBe(9);
    expect(home.genres[0]).toMatchObject({ genre: '恋愛', titles: [{ id: 'g' }] });
    expect(home.articles[0]).toEqual({ slug: 's', title: '記事', lead: 'リード', publishedAt: '2026-09-01', author: '編集部', gameIds: ['g'], tags: ['特集'], cover: '/c.png', ageRating: 'all' });
  });

  it('gives a title with its screenshots and related titles, and null for an unknown id', async () => {
    fetchMock.mockReturnValueOnce(
      ok({
        title: { ...wire('x'), brand_reading: 'ゆうなぎそふと', game_folder: 'x', screenshots: [{ src: '/s.png', width: 1280, height: 720, alt: '場面' }] },
        related: [wire('y')],
      }),
    );
    const t = await fetchTitle('x y');
    expect(urlOf().pathname).toBe('/v1/catalog/titles/x%20y');
    expect(t?.title).toMatchObject({ id: 'x', brandReading: 'ゆうなぎそふと', gameFolder: 'x', screenshots: [{ src: '/s.png', alt: '場面' }] });
    expect(t?.related.map((r) => r.id)).toEqual(['y']);

    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'game_not_found', message: 'タイトルが見つかりません。' } }));
    await expect(fetchTitle('nope')).resolves.toBeNull();
  });

  it('carries a title\'s licence when it has one, and has no licence key at all otherwise (getStaticProps)', async () => {
    const license = { name: 'Expat (MIT)', copyright: '2004-2022 Tom Rothamel and contributors', credits: ['音楽: Alessio'], source: 'Debian', text: 'Permission is hereby granted.' };
    fetchMock.mockReturnValueOnce(ok({ title: { ...wire('q'), brand_reading: 'れんぱい', game_folder: 'q', screenshots: [], license }, related: [] }));
    expect((await fetchTitle('q'))?.title.license).toEqual(license);
    fetchMock.mockReturnValueOnce(ok({ title: { ...wire('x'), brand_reading: 'ゆうなぎそふと', game_folder: 'x', screenshots: [] }, related: [] }));
    expect((await fetchTitle('x'))?.title).not.toHaveProperty('license');
  });

  it('searches with the query as given and keeps the api ranking', async () => {
    fetchMock.mockReturnValueOnce(ok({ normalized_query: 'しぐなる', total: 2, results: [{ title: wire('b'), score: 9 }, { title: wire('a'), score: 1 }], next_cursor: null, suggestions: [] }));
    const r = await searchCatalog('シグナル', { limit: 10 });
    expect(urlOf().searchParams.get('q')).toBe('シグナル');
    expect(r).toMatchObject({ query: 'シグナル', normalizedQuery: 'しぐなる', total: 2, nextCursor: null });
    expect(r.titles.map((t) => t.id)).toEqual(['b', 'a']);
  });

  it('maps brands and magazine answers', async () => {
    fetchMock.mockReturnValueOnce(ok({ brands: [{ id: 'yunagi', name: '夕凪ソフト', reading: 'ゆうなぎそふと', description: '説明', titles: [wire('a')] }] }));
    expect((await fetchBrands())[0]).toMatchObject({ id: 'yunagi', titles: [{ id: 'a', brand: '夕凪ソフト' }] });
    fetchMock.mockReturnValueOnce(ok({ articles: [], next_cursor: 'n' }));
    expect(await fetchArticles({ cursor: 'c', limit: 12 })).toEqual({ items: [], nextCursor: 'n' });
    fetchMock.mockReturnValueOnce(ok({ article: { slug: 's', title: 'T', lead: 'L', published_at: '2026-01-02', author: 'A', game_ids: [], tags: [], cover: '/c.png', age_rating: 'r18', body: '## 見出し' } }));
    expect(await fetchArticle('s')).toMatchObject({ slug: 's', ageRating: 'r18', body: '## 見出し' });
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'article_not_found', message: '記事が見つかりません。' } }));
    expect(await fetchArticle('none')).toBeNull();
  });

  it('turns a typed server error into ApiClientError with its Japanese message', async () => {
    fetchMock.mockReturnValueOnce(answer(400, { status: 'error', error: { code: 'invalid_request', message: '検索ワードが長すぎます。' } }));
    const e = await searchCatalog('x'.repeat(101)).catch((x) => x);
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e).toMatchObject({ code: 'invalid_request', httpStatus: 400, userMessage: '検索ワードが長すぎます。' });
    expect(catalogErrorMessage(e)).toBe('検索ワードが長すぎます。');
  });

  it('rejects answers without status ok or without their lists', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { titles: [] }));
    await expect(fetchTitles()).rejects.toMatchObject({ code: 'bad_response', userMessage: CATALOG_MESSAGES.badResponse });
    fetchMock.mockReturnValueOnce(ok({ featured: null }));
    await expect(fetchHome()).rejects.toMatchObject({ code: 'bad_response' });
    fetchMock.mockReturnValueOnce(Promise.resolve(new Response('<html>502</html>', { status: 502 })));
    await expect(fetchBrands()).rejects.toMatchObject({ code: 'bad_response', httpStatus: 502 });
    // A 404 that is not "no such title" (e.g. an api without the route) is an error, not a missing title.
    fetchMock.mockReturnValueOnce(answer(404, { status: 'error', error: { code: 'route_missing', message: '' } }));
    await expect(fetchTitle('x')).rejects.toMatchObject({ code: 'route_missing', userMessage: CATALOG_MESSAGES.other });
  });

  it('reports an unreachable api in Japanese', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    const e = await fetchHome().catch((x) => x);
    expect(e).toMatchObject({ code: 'network', userMessage: CATALOG_MESSAGES.network });
    expect(catalogErrorMessage(new Error('boom'))).toBe(CATALOG_MESSAGES.other);
  });
});
