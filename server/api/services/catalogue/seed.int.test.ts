/**
 * The catalogue seed against PostgreSQL: idempotent, a removed title stays but unavailable (and
 * leaves every catalogue answer), a removed article is deleted, bad content stops it with a
 * message naming the file and field.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runMigrations } from '../../db/migrate';
import { createTestSchema, type TestSchema } from '../../testing/test-app';
import { FIXTURE_BRANDS, writeArticle, writeCatalogue, writeTitle, type FixtureDirs } from './fixture';
import { seedCatalogue } from './seed';
import { CatalogueService } from './service';
import { loadSnapshot } from './snapshot';

jest.setTimeout(60_000);

let schema: TestSchema;
let root: string;
let dirs: FixtureDirs;
const [A, B] = FIXTURE_BRANDS.map((brand) => brand.name);
const SHOT = { src: '/games/ame/screenshots/01.png', width: 1280, height: 720, alt: '雨の駅のホーム' };

beforeAll(async () => {
  schema = await createTestSchema('seed');
  await runMigrations(schema.pool);
  root = await mkdtemp(path.join(tmpdir(), 'yc-seed-'));
  dirs = await writeCatalogue(root, {
    brands: FIXTURE_BRANDS,
    titles: [
      { id: 'ame', title: '雨の駅', reading: 'あめのえき', brand: A, tags: ['雨'], genres: ['日常'], screenshots: [SHOT] },
      { id: 'yuki', title: '雪の街', reading: 'ゆきのまち', brand: B, releaseDate: '2026-02-02', ageRating: 'r15' },
    ],
    articles: [
      { slug: 'ame-review', title: '雨の駅レビュー', publishedAt: '2026-03-01', gameIds: ['ame'] },
      { slug: 'both', title: '二作紹介', publishedAt: '2026-03-02', gameIds: ['ame', 'yuki'] },
    ],
  });
});

afterAll(async () => {
  await schema?.drop();
  await rm(root, { recursive: true, force: true });
});

async function rows(sql: string) {
  return (await schema.pool.query(sql)).rows;
}

it('writes brands, titles (screenshots default to []) and articles, and a second run changes nothing', async () => {
  await seedCatalogue(schema.pool, dirs);
  const titles = await rows(
    `SELECT id, brand_id, reading, tags, genres, to_char(release_date, 'YYYY-MM-DD') AS release_date, age_rating, key_art,
            screenshots, game_folder, available FROM games ORDER BY id`,
  );
  expect(titles).toEqual([
    {
      id: 'ame', brand_id: 'test-brand-a', reading: 'あめのえき', tags: ['雨'], genres: ['日常'], release_date: '2026-01-01',
      age_rating: 'all', key_art: '/games/ame/keyart.png', screenshots: [SHOT], game_folder: 'ame', available: true,
    },
    {
      id: 'yuki', brand_id: 'test-brand-b', reading: 'ゆきのまち', tags: [], genres: [], release_date: '2026-02-02',
      age_rating: 'r15', key_art: '/games/yuki/keyart.png', screenshots: [], game_folder: 'yuki', available: true,
    },
  ]);
  expect(await rows('SELECT id, name FROM brands ORDER BY id')).toEqual(FIXTURE_BRANDS.map(({ id, name }) => ({ id, name })));
  expect(await rows('SELECT slug, game_ids FROM articles ORDER BY slug')).toEqual([
    { slug: 'ame-review', game_ids: ['ame'] },
    { slug: 'both', game_ids: ['ame', 'yuki'] },
  ]);

  const snapshot = async () => rows(`SELECT 'g' AS t, id, updated_at FROM games UNION ALL SELECT 'b', id, updated_at FROM brands
                                      UNION ALL SELECT 'a', slug, updated_at FROM articles ORDER BY 1, 2`);
  const before = await snapshot();
  await seedCatalogue(schema.pool, dirs);
  expect(await snapshot()).toEqual(before);
});

it('keeps a removed title as unavailable (left out of the catalogue), deletes a removed article', async () => {
  const service = new CatalogueService(schema.pool, { info: () => {} } as never);
  expect((await service.titles({ sort: 'new', limit: 20 })).titles.map((t) => t.id)).toEqual(['yuki', 'ame']);
  // a session references the title: it must survive
  await schema.pool.query(`INSERT INTO users (uid) VALUES ('u1')`);
  await schema.pool.query(`INSERT INTO sessions (id, uid, game_id, state) VALUES ('00000000-0000-4000-8000-000000000001', 'u1', 'yuki', 'closed')`);

  await rm(path.join(dirs.gamesDir, 'yuki'), { recursive: true });
  await rm(path.join(dirs.contentDir, 'magazine', 'both.md'));
  await seedCatalogue(schema.pool, dirs);
  expect(await rows('SELECT id, available FROM games ORDER BY id')).toEqual([
    { id: 'ame', available: true },
    { id: 'yuki', available: false },
  ]);
  expect(await rows('SELECT slug FROM articles')).toEqual([{ slug: 'ame-review' }]);

  // the service reloaded after the seed: yuki is gone from lists, pages, search and brands
  expect((await service.titles({ sort: 'new', limit: 20 })).titles.map((t) => t.id)).toEqual(['ame']);
  await expect(service.title('yuki')).rejects.toMatchObject({ code: 'game_not_found' });
  expect((await service.search('ゆき', 20)).total).toBe(0);
  expect((await service.brands()).brands.map((b) => b.id)).toEqual(['test-brand-a']);
  const snap = await loadSnapshot(schema.pool);
  expect(snap.ageRatings.get('yuki')).toBe('r15');

  // it comes back when its folder does
  await writeTitle(dirs.gamesDir, { id: 'yuki', title: '雪の街', reading: 'ゆきのまち', brand: B });
  await seedCatalogue(schema.pool, dirs);
  expect((await service.title('yuki')).title.id).toBe('yuki');
  service.close();
});

it('stops with a clear message on a title of an unknown brand, and changes nothing', async () => {
  await writeTitle(dirs.gamesDir, { id: 'stray', title: '迷子', reading: 'まいご', brand: '存在しないブランド' });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(
    /games\/stray\/meta\.json: "brand" names 「存在しないブランド」, which content\/brands\.json does not list/,
  );
  expect(await rows(`SELECT id FROM games WHERE id = 'stray'`)).toEqual([]);
  await rm(path.join(dirs.gamesDir, 'stray'), { recursive: true });
});

it('stops on an article naming an unknown title or a bad date', async () => {
  await writeArticle(dirs.contentDir, { slug: 'ghost', title: '幽霊', publishedAt: '2026-03-03', gameIds: ['no-such-game'] });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/content\/magazine\/ghost\.md: "gameIds" names "no-such-game"/);
  await writeArticle(dirs.contentDir, { slug: 'ghost', title: '幽霊', publishedAt: '2026-13-45', gameIds: ['ame'] });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/ghost\.md: "publishedAt" must be a date/);
  await rm(path.join(dirs.contentDir, 'magazine', 'ghost.md'));
  await seedCatalogue(schema.pool, dirs);
});
