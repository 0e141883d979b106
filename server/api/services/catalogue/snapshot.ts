/**
 * The catalogue in memory: every available title with its brand and its search fields already
 * normalised, the brands that have titles, and the articles. Loaded from PostgreSQL after each
 * seed (the catalogue only changes at start), so a catalogue read costs no query except the
 * live play counts (plays.ts).
 */
import type pg from 'pg';
import type { AgeRating, ArticleWire, ScreenshotImageWire, TitleLicenseWire, TitleWire } from '../../../../lib/api-types/schemas/catalog';
import { WEB_RUNTIME, type TitleRuntime } from '../../../../lib/api-types/titleRuntime';
import { normalizeForSearch } from '../../../../lib/search/normalize';
import type { Article, Brand, Title } from './types';

/** A title's text as search compares it (lib/search/normalize.ts on every field). */
export interface SearchFields {
  title: string;
  reading: string;
  brand: string;
  brandReading: string;
  tags: string[];
  genres: string[];
  description: string;
}

export interface CatalogueTitle extends Title {
  brand: Brand;
  search: SearchFields;
}

export interface CatalogueSnapshot {
  /** Available titles, newest first. */
  titles: CatalogueTitle[];
  byId: Map<string, CatalogueTitle>;
  /** Brands with at least one available title, by reading. */
  brands: Brand[];
  /** Newest first. */
  articles: Article[];
  articleBySlug: Map<string, Article>;
  /** Age rating of every title ever seeded (an article about a withdrawn title keeps its rating). */
  ageRatings: Map<string, AgeRating>;
}

/** The columns of `games` the catalogue reads (the list fields have the wire's names). */
type GameRow = Pick<
  TitleWire,
  'id' | 'title' | 'reading' | 'brand_id' | 'description' | 'tags' | 'genres' | 'release_date' | 'age_rating' | 'key_art'
> & {
  screenshots: ScreenshotImageWire[];
  game_folder: string | null;
  available: boolean;
  premium: boolean;
  /** From the seeded record (`meta`): no columns of their own. */
  runtime: TitleRuntime | null;
  license: TitleLicenseWire | null;
};

/** The table's columns are the wire's names (dates as YYYY-MM-DD text). */
type ArticleRow = Omit<ArticleWire, 'age_rating'>;

export function searchFieldsOf(title: Title, brand: Brand): SearchFields {
  return {
    title: normalizeForSearch(title.title),
    reading: normalizeForSearch(title.reading),
    brand: normalizeForSearch(brand.name),
    brandReading: normalizeForSearch(brand.reading),
    tags: title.tags.map(normalizeForSearch),
    genres: title.genres.map(normalizeForSearch),
    description: normalizeForSearch(title.description),
  };
}

/** Builds the indexed snapshot from plain records (the loader below and the bench use it). */
export function buildSnapshot(brandList: Brand[], titleList: Title[], articleList: Article[], ageRatings = new Map<string, AgeRating>()): CatalogueSnapshot {
  const brandById = new Map(brandList.map((brand) => [brand.id, brand]));
  const titles: CatalogueTitle[] = [];
  for (const title of titleList) {
    const brand = brandById.get(title.brandId);
    if (!brand) continue; // the seed guarantees a brand; a hand-edited row without one stays out
    titles.push({ ...title, brand, search: searchFieldsOf(title, brand) });
    ageRatings.set(title.id, title.ageRating);
  }
  titles.sort((a, b) => (a.releaseDate === b.releaseDate ? (a.id < b.id ? -1 : 1) : a.releaseDate < b.releaseDate ? 1 : -1));
  const withTitles = new Set(titles.map((title) => title.brandId));
  const brands = brandList.filter((brand) => withTitles.has(brand.id)).sort((a, b) => (a.reading < b.reading ? -1 : a.reading > b.reading ? 1 : 0));
  const articles = [...articleList].sort((a, b) =>
    a.publishedAt === b.publishedAt ? (a.slug < b.slug ? -1 : 1) : a.publishedAt < b.publishedAt ? 1 : -1,
  );
  return {
    titles,
    byId: new Map(titles.map((title) => [title.id, title])),
    brands,
    articles,
    articleBySlug: new Map(articles.map((article) => [article.slug, article])),
    ageRatings,
  };
}

export async function loadSnapshot(db: pg.Pool): Promise<CatalogueSnapshot> {
  const [brands, games, articles] = await Promise.all([
    db.query<Brand>('SELECT id, name, reading, description FROM brands'),
    db.query<GameRow>(
      `SELECT id, title, reading, brand_id, description, tags, genres, to_char(release_date, 'YYYY-MM-DD') AS release_date,
              age_rating, key_art, screenshots, game_folder, available, premium,
              meta->'runtime' AS runtime, meta->'license' AS license
         FROM games WHERE brand_id IS NOT NULL AND release_date IS NOT NULL`,
    ),
    db.query<ArticleRow>(
      `SELECT slug, title, lead, to_char(published_at, 'YYYY-MM-DD') AS published_at, author, game_ids, tags, cover, body FROM articles`,
    ),
  ]);
  const ageRatings = new Map(games.rows.map((row) => [row.id, row.age_rating]));
  const titles: Title[] = games.rows
    .filter((row) => row.available)
    .map((row) => ({
      id: row.id,
      title: row.title,
      reading: row.reading,
      brandId: row.brand_id,
      description: row.description,
      tags: row.tags,
      genres: row.genres,
      releaseDate: row.release_date,
      ageRating: row.age_rating,
      keyArt: row.key_art,
      screenshots: row.screenshots,
      gameFolder: row.game_folder ?? row.id,
      premium: row.premium,
      runtime: row.runtime ?? { kind: WEB_RUNTIME },
      ...(row.license ? { license: row.license } : {}),
    }));
  return buildSnapshot(
    brands.rows,
    titles,
    articles.rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      lead: row.lead,
      publishedAt: row.published_at,
      author: row.author,
      gameIds: row.game_ids,
      tags: row.tags,
      cover: row.cover,
      body: row.body,
    })),
    ageRatings,
  );
}
