/**
 * The public catalogue and magazine over the repository's real catalogue (games/, content/),
 * seeded by the api at start. Other titles may be added to games/ over time: the assertions
 * name the titles they need and never count the whole catalogue.
 */
import { request, startSessionApp, type SessionTestApp } from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

let schema: TestSchema;
let api: SessionTestApp;
const get = (url: string) => request(api.base, 'GET', url);

beforeAll(async () => {
  schema = await createTestSchema('catalog');
  api = await startSessionApp(schema.name);
});

afterAll(async () => {
  await api?.close();
  await schema?.drop();
});

const TITLE_KEYS = ['age_rating', 'brand', 'brand_id', 'description', 'genres', 'id', 'key_art', 'plays', 'premium', 'reading', 'release_date', 'tags', 'title'];

describe('titles', () => {
  it('serves a title page with every field, its brand and related titles (never itself)', async () => {
    const answer = await get('/v1/catalog/titles/hoshifuru-toshokan');
    expect(answer.status).toBe(200);
    const { title, related } = answer.body;
    expect(title).toEqual({
      id: 'hoshifuru-toshokan',
      title: '星降る図書館',
      reading: 'ほしふるとしょかん',
      brand_id: 'tsukiakari-kobo',
      brand: '月灯工房',
      brand_reading: 'つきあかりこうぼう',
      description: expect.stringContaining('夜にだけ開く不思議な図書館'),
      tags: ['ファンタジー', '図書館', 'ミステリー', 'マルチエンディング'],
      genres: ['ファンタジー'],
      release_date: '2026-10-10',
      age_rating: 'all',
      key_art: '/games/hoshifuru-toshokan/keyart.png',
      plays: 0,
      premium: false,
      screenshots: expect.any(Array),
      game_folder: 'hoshifuru-toshokan',
    });
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(6);
    expect(related.map((t: { id: string }) => t.id)).not.toContain('hoshifuru-toshokan');
    expect(Object.keys(related[0]).sort()).toEqual(TITLE_KEYS);
  });

  it('answers 404 game_not_found for an unknown or malformed id', async () => {
    for (const id of ['no-such-title', 'BAD_ID', '%E6%98%9F', 'a'.repeat(80)]) {
      const answer = await get(`/v1/catalog/titles/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('game_not_found');
      expect(answer.body.error.message).toBe('お探しのゲームが見つかりません。');
    }
  });

  it('lists titles newest first, by reading, filtered by genre and brand, with age-rated titles in', async () => {
    const newest = (await get('/v1/catalog/titles?limit=100')).body;
    const dates = newest.titles.map((t: { release_date: string }) => t.release_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(newest.titles.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(['sakurairo-signal', 'hajimari-no-eki']));
    expect(newest.next_cursor).toBeNull();

    const byTitle = (await get('/v1/catalog/titles?sort=title&limit=100')).body.titles.map((t: { reading: string }) => t.reading);
    expect([...byTitle].sort()).toEqual(byTitle);

    const yunagi = (await get('/v1/catalog/titles?brand=yunagi-soft')).body.titles.map((t: { id: string }) => t.id);
    expect(yunagi.sort()).toEqual(['hajimari-no-eki', 'sakurairo-signal']);
    const fantasy = (await get(`/v1/catalog/titles?genre=${encodeURIComponent('ファンタジー')}`)).body.titles;
    expect(fantasy.every((t: { genres: string[] }) => t.genres.includes('ファンタジー'))).toBe(true);
    expect(fantasy.map((t: { id: string }) => t.id)).toContain('hoshifuru-toshokan');
    expect((await get('/v1/catalog/titles?brand=no-such-brand')).body).toEqual({ status: 'ok', titles: [], next_cursor: null });
  });

  it('refuses bad list parameters with 400 invalid_request', async () => {
    for (const query of ['sort=random', 'limit=0', 'limit=101', 'limit=x', 'cursor=not-a-cursor', `genre=${'x'.repeat(101)}`]) {
      const answer = await get(`/v1/catalog/titles?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.error.code).toBe('invalid_request');
    }
  });
});

describe('home, brands, magazine', () => {
  it('serves home: an all-ages featured title, rows of new, popular and genres, the 3 newest articles', async () => {
    const home = (await get('/v1/catalog/home')).body;
    expect(home.status).toBe('ok');
    expect(home.featured.age_rating).toBe('all');
    expect(home.new_titles.length).toBeGreaterThanOrEqual(3);
    expect(home.popular.length).toBe(home.new_titles.length);
    expect(home.genres.length).toBeGreaterThan(0);
    for (const row of home.genres) {
      expect(row.titles.every((t: { genres: string[] }) => t.genres.includes(row.genre))).toBe(true);
    }
    expect(home.articles).toHaveLength(3);
    const dates = home.articles.map((a: { published_at: string }) => a.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(Object.keys(home.articles[0]).sort()).toEqual(['age_rating', 'author', 'cover', 'game_ids', 'lead', 'published_at', 'slug', 'tags', 'title']);
  });

  it('lists brands that have titles, each with its titles', async () => {
    const { brands } = (await get('/v1/catalog/brands')).body;
    const yunagi = brands.find((b: { id: string }) => b.id === 'yunagi-soft');
    expect(yunagi).toMatchObject({ name: '夕凪ソフト', reading: 'ゆうなぎそふと' });
    expect(yunagi.description.length).toBeGreaterThan(20);
    expect(yunagi.titles.map((t: { id: string }) => t.id).sort()).toEqual(['hajimari-no-eki', 'sakurairo-signal']);
    expect(brands.every((b: { titles: unknown[] }) => b.titles.length > 0)).toBe(true);
  });

  it('pages the magazine newest first and serves an article with its body and strictest age rating', async () => {
    const first = (await get('/v1/magazine?limit=2')).body;
    expect(first.articles).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = (await get(`/v1/magazine?limit=100&cursor=${first.next_cursor}`)).body;
    const all = [...first.articles, ...rest.articles].map((a: { slug: string }) => a.slug);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining(['hajimari-no-eki-review', 'sakurairo-signal-review']));

    const r18 = (await get('/v1/magazine/sakurairo-signal-review')).body.article;
    expect(r18.age_rating).toBe('r18');
    expect(r18.body).toContain('18歳以上');
    expect(r18.body.startsWith('---')).toBe(false);
    expect((await get('/v1/magazine/hajimari-no-eki-review')).body.article).toMatchObject({
      slug: 'hajimari-no-eki-review',
      published_at: '2026-11-06',
      game_ids: ['hajimari-no-eki'],
      age_rating: 'all',
      author: 'ユメキャスト編集部',
    });
    for (const slug of ['no-such-article', 'Bad_Slug']) {
      const missing = await get(`/v1/magazine/${slug}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('article_not_found');
    }
  });
});

describe('search over the real catalogue', () => {
  const search = async (q: string) => (await get(`/v1/catalog/search?q=${encodeURIComponent(q)}`)).body;
  const ids = (body: { results: { title: { id: string } }[] }) => body.results.map((r) => r.title.id);

  it('finds a katakana title from hiragana, and from half-width katakana', async () => {
    expect(ids(await search('しぐなる'))).toEqual(['sakurairo-signal']);
    const half = await search('ｼｸﾞﾅﾙ');
    expect(half.normalized_query).toBe('しぐなる');
    expect(ids(half)).toEqual(['sakurairo-signal']);
  });

  it('searches brand names and tags, all terms must match', async () => {
    expect(ids(await search('夕凪ソフト')).sort()).toEqual(['hajimari-no-eki', 'sakurairo-signal']);
    expect(ids(await search('夕凪ソフト 恋愛'))).toEqual(['sakurairo-signal']);
    expect(ids(await search('図書館 恋愛'))).toEqual([]);
  });

  it('suggests something for an empty query and for a query without matches', async () => {
    const empty = await search('');
    expect(empty).toMatchObject({ total: 0, results: [], next_cursor: null });
    expect(empty.suggestions.length).toBeGreaterThan(0);
    const none = await search('星降る駅のシグナル図書');
    expect(none.total).toBe(0);
    expect(none.suggestions).toEqual(expect.arrayContaining(['星降る図書館']));
  });

  it('refuses a query over 100 characters', async () => {
    expect((await get(`/v1/catalog/search?q=${'あ'.repeat(100)}`)).status).toBe(200);
    const long = await get(`/v1/catalog/search?q=${encodeURIComponent('あ'.repeat(101))}`);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('invalid_request');
  });
});

it('lets the web origin PUT and DELETE (CORS preflight)', async () => {
  for (const method of ['PUT', 'DELETE']) {
    const answer = await request(api.base, 'OPTIONS', '/v1/mylist/bookmarks/hajimari-no-eki', {
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-methods')).toContain(method);
  }
});
