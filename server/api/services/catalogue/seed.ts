/**
 * Seeds the catalogue at every api start, in one transaction: brands (content/brands.json),
 * titles (games/<id>/meta.json) and magazine articles (content/magazine/*.md). Upserts, so a
 * second run changes nothing (updated_at moves only when a row's content changed).
 *
 * - A title whose meta.json disappeared stays (sessions, saves and history reference it) but is
 *   marked unavailable; the catalogue leaves it out of every answer.
 * - An article whose file disappeared is deleted.
 * - A brand no longer listed is deleted unless an (unavailable) title still references it.
 */
import path from 'node:path';
import type pg from 'pg';
import { readArticles, readBrands, readTitles } from './read';
import type { Article, Brand, Title } from './types';

/** CONTENT_DIR, or the repository's content/ folder. */
export function defaultContentDir(env: Record<string, string | undefined> = process.env): string {
  return env.CONTENT_DIR?.trim() || path.resolve(__dirname, '../../../../content');
}

export interface CatalogueSources {
  /** games/: one folder per title with its meta.json. */
  gamesDir: string;
  /** content/: brands.json and magazine/. */
  contentDir: string;
}

export interface SeedResult {
  brands: Brand[];
  titles: Title[];
  articles: Article[];
}

type Listener = () => void;
const listeners = new WeakMap<pg.Pool, Set<Listener>>();

/** Calls `fn` after every seed of this pool commits (the in-memory snapshot reloads then). */
export function onCatalogueSeeded(pool: pg.Pool, fn: Listener): () => void {
  const set = listeners.get(pool) ?? new Set<Listener>();
  listeners.set(pool, set);
  set.add(fn);
  return () => set.delete(fn);
}

export async function readCatalogue(sources: CatalogueSources): Promise<SeedResult> {
  const brands = await readBrands(sources.contentDir);
  const titles = await readTitles(sources.gamesDir, brands);
  const articles = await readArticles(sources.contentDir, new Set(titles.map((title) => title.id)));
  return { brands, titles, articles };
}

async function upsertBrands(client: pg.PoolClient, brands: Brand[]): Promise<void> {
  for (const brand of brands) {
    await client.query(
      `INSERT INTO brands (id, name, reading, description) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, reading = EXCLUDED.reading, description = EXCLUDED.description,
         updated_at = CASE WHEN (brands.name, brands.reading, brands.description)
                               IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.reading, EXCLUDED.description)
                          THEN now() ELSE brands.updated_at END`,
      [brand.id, brand.name, brand.reading, brand.description],
    );
  }
}

async function upsertTitles(client: pg.PoolClient, titles: Title[]): Promise<void> {
  for (const t of titles) {
    // `meta` keeps the whole record (what 002 stored); the columns are what queries use.
    await client.query(
      `INSERT INTO games (id, title, meta, available, updated_at, reading, brand_id, description, tags, genres,
                          release_date, age_rating, key_art, screenshots, game_folder, premium)
       VALUES ($1, $2, $3, true, now(), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, meta = EXCLUDED.meta, available = true,
         reading = EXCLUDED.reading, brand_id = EXCLUDED.brand_id, description = EXCLUDED.description,
         tags = EXCLUDED.tags, genres = EXCLUDED.genres, release_date = EXCLUDED.release_date,
         age_rating = EXCLUDED.age_rating, key_art = EXCLUDED.key_art, screenshots = EXCLUDED.screenshots,
         game_folder = EXCLUDED.game_folder, premium = EXCLUDED.premium,
         updated_at = CASE WHEN games.meta IS DISTINCT FROM EXCLUDED.meta OR NOT games.available
                           THEN now() ELSE games.updated_at END`,
      [
        t.id, t.title, JSON.stringify(t), t.reading, t.brandId, t.description, t.tags, t.genres,
        t.releaseDate, t.ageRating, t.keyArt, JSON.stringify(t.screenshots), t.gameFolder, t.premium,
      ],
    );
  }
  await client.query(`UPDATE games SET available = false, updated_at = now() WHERE available AND NOT (id = ANY($1::text[]))`, [
    titles.map((title) => title.id),
  ]);
}

async function syncArticles(client: pg.PoolClient, articles: Article[]): Promise<void> {
  for (const a of articles) {
    await client.query(
      `INSERT INTO articles (slug, title, lead, published_at, author, game_ids, tags, cover, body)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (slug) DO UPDATE SET title = EXCLUDED.title, lead = EXCLUDED.lead, published_at = EXCLUDED.published_at,
         author = EXCLUDED.author, game_ids = EXCLUDED.game_ids, tags = EXCLUDED.tags, cover = EXCLUDED.cover, body = EXCLUDED.body,
         updated_at = CASE WHEN (articles.title, articles.lead, articles.published_at, articles.author, articles.game_ids,
                                 articles.tags, articles.cover, articles.body)
                               IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.lead, EXCLUDED.published_at, EXCLUDED.author,
                                 EXCLUDED.game_ids, EXCLUDED.tags, EXCLUDED.cover, EXCLUDED.body)
                          THEN now() ELSE articles.updated_at END`,
      [a.slug, a.title, a.lead, a.publishedAt, a.author, a.gameIds, a.tags, a.cover, a.body],
    );
  }
  await client.query('DELETE FROM articles WHERE NOT (slug = ANY($1::text[]))', [articles.map((article) => article.slug)]);
}

/** Reads the repository's catalogue, writes it in one transaction, then tells the listeners. */
export async function seedCatalogue(pool: pg.Pool, sources: CatalogueSources): Promise<SeedResult> {
  const catalogue = await readCatalogue(sources);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two api processes starting together seed one after the other (same rows either way).
    await client.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.catalogue_seed'))`);
    await upsertBrands(client, catalogue.brands);
    await upsertTitles(client, catalogue.titles);
    await client.query(
      'DELETE FROM brands b WHERE NOT (id = ANY($1::text[])) AND NOT EXISTS (SELECT 1 FROM games g WHERE g.brand_id = b.id)',
      [catalogue.brands.map((brand) => brand.id)],
    );
    await syncArticles(client, catalogue.articles);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  for (const fn of listeners.get(pool) ?? []) fn();
  return catalogue;
}
