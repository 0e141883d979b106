/**
 * The `premium` flag of a title: read from games/<id>/meta.json (absent = false, anything but a
 * boolean stops the seed naming the field), stored in games.premium and carried on the
 * catalogue's title objects (lists and the title page).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runMigrations } from '../../db/migrate';
import { createTestSchema, type TestSchema } from '../../testing/test-app';
import { FIXTURE_BRANDS, writeCatalogue, type FixtureDirs } from '../catalogue/fixture';
import { readTitles } from '../catalogue/read';
import { seedCatalogue } from '../catalogue/seed';
import { loadSnapshot } from '../catalogue/snapshot';
import { titleDetailWire, titleWire } from '../catalogue/wire';

jest.setTimeout(60_000);

let schema: TestSchema;
let root: string;
let dirs: FixtureDirs;

async function setMeta(id: string, fields: Record<string, unknown>): Promise<void> {
  const file = path.join(dirs.gamesDir, id, 'meta.json');
  await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), ...fields }));
}

beforeAll(async () => {
  schema = await createTestSchema('premium');
  await runMigrations(schema.pool);
  root = await mkdtemp(path.join(tmpdir(), 'yc-premium-'));
  dirs = await writeCatalogue(root, {
    brands: FIXTURE_BRANDS,
    titles: [
      { id: 'free', title: '無料の話', reading: 'むりょうのはなし', brand: FIXTURE_BRANDS[0].name },
      { id: 'paid', title: '会員の話', reading: 'かいいんのはなし', brand: FIXTURE_BRANDS[1].name },
    ],
  });
  await setMeta('paid', { premium: true });
});

afterAll(async () => {
  await schema?.drop();
  await rm(root, { recursive: true, force: true });
});

it('carries meta.json "premium" to the games table and the catalogue wire', async () => {
  await seedCatalogue(schema.pool, dirs);
  expect((await schema.pool.query('SELECT id, premium FROM games ORDER BY id')).rows).toEqual([
    { id: 'free', premium: false },
    { id: 'paid', premium: true },
  ]);
  const snapshot = await loadSnapshot(schema.pool);
  const plays = new Map<string, number>();
  expect(titleWire(snapshot.byId.get('paid')!, plays).premium).toBe(true);
  expect(titleWire(snapshot.byId.get('free')!, plays).premium).toBe(false);
  expect(titleDetailWire(snapshot.byId.get('paid')!, plays).premium).toBe(true);

  // Flipped back in meta.json: the next seed follows.
  await setMeta('paid', { premium: false });
  await seedCatalogue(schema.pool, dirs);
  expect((await schema.pool.query(`SELECT premium FROM games WHERE id = 'paid'`)).rows[0].premium).toBe(false);
});

it('refuses a premium value that is not a boolean, naming the file and the field', async () => {
  await setMeta('free', { premium: 'yes' });
  await expect(readTitles(dirs.gamesDir, FIXTURE_BRANDS)).rejects.toThrow('games/free/meta.json: "premium" must be true or false');
  await setMeta('free', { premium: false });
});

