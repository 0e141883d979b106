/**
 * The catalogue seed against PostgreSQL: idempotent, a removed title stays but unavailable (and
 * leaves every catalogue answer), a removed article is deleted, bad content stops it with a
 * message naming the file and field; a title another runtime plays (Ren'Py, issue 15) keeps its
 * "runtime" and its licence, which only its title page shows.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

const RENPY = {
  id: 'renpy-title',
  title: 'The Question',
  reading: 'ざ・くえすちょん',
  brand: A,
  releaseDate: '2020-01-01',
  extra: {
    license: 'Expat (MIT)',
    copyright: '2004-2022 Tom Rothamel and contributors',
    credits: ['音楽: Alessio', 'シナリオ: mikey'],
    source: 'Debian renpy-thequestion 8.0.3+dfsg-1',
    runtime: { kind: 'renpy', baseDir: '/usr/share/games/renpy/the_question', language: 'japanese' },
  },
  files: { LICENSE: 'Copyright (c) 2004-2022 Tom Rothamel\n\nPermission is hereby granted, free of charge.\n' },
};

it('keeps a Ren\'Py title\'s runtime and licence; only its title page answer carries the licence', async () => {
  await writeTitle(dirs.gamesDir, RENPY);
  await seedCatalogue(schema.pool, dirs);
  expect(await rows(`SELECT meta->'runtime' AS runtime FROM games WHERE id IN ('ame', 'renpy-title') ORDER BY id`)).toEqual([
    { runtime: { kind: 'web' } },
    { runtime: { kind: 'renpy', baseDir: '/usr/share/games/renpy/the_question', language: 'japanese' } },
  ]);
  const service = new CatalogueService(schema.pool, { info: () => {} } as never);
  const page = (await service.title('renpy-title')).title;
  expect(page.license).toEqual({
    name: 'Expat (MIT)',
    copyright: '2004-2022 Tom Rothamel and contributors',
    credits: ['音楽: Alessio', 'シナリオ: mikey'],
    source: 'Debian renpy-thequestion 8.0.3+dfsg-1',
    text: 'Copyright (c) 2004-2022 Tom Rothamel\n\nPermission is hereby granted, free of charge.',
  });
  expect((await service.title('ame')).title).not.toHaveProperty('license');
  const listed = (await service.titles({ sort: 'new', limit: 20 })).titles.find((t) => t.id === 'renpy-title');
  expect(listed).toBeDefined();
  expect(listed).not.toHaveProperty('license');
  service.close();
});

it('stops on a bad "runtime" or a licence without its text, naming the file and the field', async () => {
  await writeTitle(dirs.gamesDir, { ...RENPY, extra: { ...RENPY.extra, runtime: { kind: 'flash' } } });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/games\/renpy-title\/meta\.json: "runtime" must be an object whose "kind" is one of web, renpy/);
  await writeTitle(dirs.gamesDir, { ...RENPY, extra: { ...RENPY.extra, runtime: { kind: 'renpy', baseDir: 'relative/dir' } } });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/"runtime": "baseDir" must be an absolute path/);
  await writeTitle(dirs.gamesDir, RENPY);
  await writeFile(path.join(dirs.gamesDir, RENPY.id, 'LICENSE'), '  \n');
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/renpy-title\/meta\.json: "license" needs the licence text beside it in LICENSE/);
  await writeTitle(dirs.gamesDir, { ...RENPY, extra: { ...RENPY.extra, credits: [] } });
  await expect(seedCatalogue(schema.pool, dirs)).rejects.toThrow(/"credits" must list who made the game/);
  await rm(path.join(dirs.gamesDir, RENPY.id), { recursive: true });
  await seedCatalogue(schema.pool, dirs);
});
