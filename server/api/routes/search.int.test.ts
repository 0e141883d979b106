/**
 * Search ranking, Japanese normalisation, the popular order and cursor pages, over a catalogue
 * written for the test (services/catalogue/fixture.ts) and seeded by the api like the real one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FIXTURE_BRANDS, syntheticTitles, writeCatalogue, type FixtureTitle } from '../services/catalogue/fixture';
import { request, startSessionApp, type SessionTestApp } from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

const [A, B] = FIXTURE_BRANDS.map((brand) => brand.name);
const TITLES: FixtureTitle[] = [
  // ranking: the query 星 matches these in different fields
  { id: 'hoshi', title: '星', reading: 'ほし', brand: A, releaseDate: '2025-01-01' },
  { id: 'hoshizora', title: '星空ノート', reading: 'ほしぞらのーと', brand: A, releaseDate: '2025-02-01' },
  { id: 'nagareboshi', title: '流れ星の駅', reading: 'ながれぼしのえき', brand: A, releaseDate: '2025-03-01' },
  { id: 'brand-only', title: '雨の日', reading: 'あめのひ', brand: B, releaseDate: '2025-04-01' },
  { id: 'tag-only', title: '灯台', reading: 'とうだい', brand: A, tags: ['星'], releaseDate: '2025-05-01' },
  { id: 'desc-only', title: '手紙', reading: 'てがみ', brand: A, description: '夜空の星を数える物語。', releaseDate: '2025-06-01' },
  // normalisation: katakana and full-width titles
  { id: 'katakana', title: 'ミライノカタチ', reading: 'みらいのかたち', brand: A, releaseDate: '2025-07-01' },
  { id: 'fullwidth', title: 'ＳＵＭＭＥＲ　ＤＡＹＳ', reading: 'さまーでいず', brand: A, genres: ['学園・青春'], releaseDate: '2025-08-01' },
  { id: 'adult', title: '夜明けのワルツ', reading: 'よあけのわるつ', brand: A, ageRating: 'r18', releaseDate: '2025-09-01' },
];

let root: string;
let schema: TestSchema;
let api: SessionTestApp;
const get = (url: string) => request(api.base, 'GET', url);
const search = async (q: string, extra = '') => (await get(`/v1/catalog/search?q=${encodeURIComponent(q)}${extra}`)).body;
const ids = (body: { results: { title: { id: string } }[] }) => body.results.map((r) => r.title.id);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'yc-catalogue-'));
  const synthetic = syntheticTitles(45).map((t) => ({ ...t, id: t.id.replace('synthetic', 'many') }));
  const dirs = await writeCatalogue(root, { brands: FIXTURE_BRANDS, titles: [...TITLES, ...synthetic] });
  process.env.CONTENT_DIR = dirs.contentDir;
  schema = await createTestSchema('search');
  api = await startSessionApp(schema.name, { gamesDir: dirs.gamesDir });
});

afterAll(async () => {
  await api?.close();
  await schema?.drop();
  delete process.env.CONTENT_DIR;
  await rm(root, { recursive: true, force: true });
});

describe('search', () => {
  it('ranks exact title > title prefix > title contains > brand > tags > description', async () => {
    const body = await search('星', '&limit=100');
    const ranked = ids(body).filter((id) => !id.startsWith('many-'));
    // brand-only: its brand 星霜ソフト contains 星
    expect(ranked).toEqual(['hoshi', 'hoshizora', 'nagareboshi', 'brand-only', 'tag-only', 'desc-only']);
    const scores = body.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(ids(await search('せいそう', '&limit=100'))).toContain('brand-only');
  });

  it('matches the reading like the title, exactly or as a prefix', async () => {
    const exact = await search('ほしぞらのーと');
    expect(ids(exact)).toEqual(['hoshizora']);
    expect(exact.results[0].score).toBeGreaterThanOrEqual(1000);
    const prefix = ids(await search('ほし', '&limit=100')).filter((id) => !id.startsWith('many-'));
    expect(prefix.slice(0, 2)).toEqual(['hoshi', 'hoshizora']);
  });

  it('finds katakana from hiragana and half-width, and full-width from half-width and lower case', async () => {
    expect(ids(await search('みらいのかたち'))).toEqual(['katakana']);
    expect(ids(await search('ﾐﾗｲ'))).toEqual(['katakana']);
    expect(ids(await search('カタチ'))).toEqual(['katakana']);
    expect(ids(await search('summer'))).toEqual(['fullwidth']);
    expect(ids(await search('Summer Days'))).toEqual(['fullwidth']);
    expect((await search('ＳＵＭＭＥＲ')).normalized_query).toBe('summer');
  });

  it('requires every term to match somewhere, and returns age-rated titles (the web gates them)', async () => {
    expect(ids(await search('summer 学園'))).toEqual(['fullwidth']);
    expect(ids(await search('summer 恋愛'))).toEqual([]);
    expect((await search('夜明け')).results[0].title).toMatchObject({ id: 'adult', age_rating: 'r18' });
  });

  it('pages results with a cursor, and bounds the limit', async () => {
    const all = await search('物語', '&limit=100');
    expect(all.total).toBeGreaterThan(20);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { results: { title: { id: string } }[]; next_cursor: string | null; total: number } = await search(
        '物語',
        `&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.results.length).toBeLessThanOrEqual(7);
      expect(page.total).toBe(all.total);
      seen.push(...ids(page));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids(all));
    for (const limit of ['0', '101', '-1']) expect((await get(`/v1/catalog/search?q=a&limit=${limit}`)).status).toBe(400);
    const foreign = await get('/v1/catalog/titles?limit=5');
    const wrongOrder = await get(`/v1/catalog/search?q=${encodeURIComponent('物語')}&cursor=${foreign.body.next_cursor}`);
    expect(wrongOrder.status).toBe(400);
    expect(wrongOrder.body.error.code).toBe('invalid_request');
  });

  it('suggests popular titles and genres for an empty query, close titles and tags when nothing matches', async () => {
    const empty = await search('   ');
    expect(empty.total).toBe(0);
    expect(empty.suggestions).toEqual(expect.arrayContaining(['学園・青春']));
    const none = await search('ミライノカタチX');
    expect(none.total).toBe(0);
    expect(none.suggestions[0]).toBe('ミライノカタチ');
  });
});

describe('lists', () => {
  it('pages every list with a cursor round trip, without repeats or gaps', async () => {
    for (const sort of ['new', 'title', 'popular']) {
      const all = (await get(`/v1/catalog/titles?sort=${sort}&limit=100`)).body.titles.map((t: { id: string }) => t.id);
      expect(all).toHaveLength(TITLES.length + 45);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { titles: { id: string }[]; next_cursor: string | null } = (
          await get(`/v1/catalog/titles?sort=${sort}&limit=10${cursor ? `&cursor=${cursor}` : ''}`)
        ).body;
        seen.push(...page.titles.map((t) => t.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual(all);
    }
    const defaults = (await get('/v1/catalog/titles')).body;
    expect(defaults.titles).toHaveLength(20);
  });

  it('orders popular by plays in the last 30 days (ties: newest), live', async () => {
    const play = async (gameId: string, daysAgo: number) => {
      const uid = `player-${randomUUID()}`;
      await schema.pool.query('INSERT INTO users (uid) VALUES ($1)', [uid]);
      await schema.pool.query(
        `INSERT INTO sessions (id, uid, game_id, state, playing_at, ended_at)
         VALUES ($1, $2, $3, 'closed', now() - make_interval(days => $4), now() - make_interval(days => $4))`,
        [randomUUID(), uid, gameId, daysAgo],
      );
    };
    await play('desc-only', 1);
    await play('desc-only', 2);
    await play('hoshi', 3);
    await play('hoshi', 40); // outside the window
    for (let i = 0; i < 5; i++) await play('tag-only', 31); // outside too
    const popular = (await get('/v1/catalog/titles?sort=popular&limit=5')).body.titles;
    expect(popular.slice(0, 2).map((t: { id: string; plays: number }) => [t.id, t.plays])).toEqual([
      ['desc-only', 2],
      ['hoshi', 1],
    ]);
    // no plays: newest first
    expect(popular[2].plays).toBe(0);
    expect(popular[2].release_date >= popular[3].release_date).toBe(true);

    await play('hoshi', 0);
    await play('hoshi', 0);
    const after = (await get('/v1/catalog/titles?sort=popular&limit=2')).body.titles.map((t: { id: string }) => t.id);
    expect(after).toEqual(['hoshi', 'desc-only']);
    const home = (await get('/v1/catalog/home')).body;
    expect(home.popular[0].id).toBe('hoshi');
    expect(home.featured.id).toBe('hoshi');
  });
});
