/** Catalogue records → the wire shapes of lib/api-types/schemas/catalog.ts. */
import type {
  AgeRating,
  ArticleSummaryWire,
  ArticleWire,
  BrandWire,
  TitleDetailWire,
  TitleWire,
} from '../../../../lib/api-types/schemas/catalog';
import type { CatalogueSnapshot, CatalogueTitle } from './snapshot';
import type { Article, Brand } from './types';

/** Plays per title id (sessions that reached `playing` in the last 30 days). */
export type Plays = ReadonlyMap<string, number>;

export function titleWire(t: CatalogueTitle, plays: Plays): TitleWire {
  return {
    id: t.id,
    title: t.title,
    reading: t.reading,
    brand_id: t.brandId,
    brand: t.brand.name,
    description: t.description,
    tags: t.tags,
    genres: t.genres,
    release_date: t.releaseDate,
    age_rating: t.ageRating,
    key_art: t.keyArt,
    plays: plays.get(t.id) ?? 0,
    premium: t.premium,
  };
}

export function titleDetailWire(t: CatalogueTitle, plays: Plays): TitleDetailWire {
  return {
    ...titleWire(t, plays),
    brand_reading: t.brand.reading,
    screenshots: t.screenshots,
    game_folder: t.gameFolder,
    ...(t.license ? { license: t.license } : {}),
  };
}

export function brandWire(brand: Brand, titles: CatalogueTitle[], plays: Plays): BrandWire {
  return {
    id: brand.id,
    name: brand.name,
    reading: brand.reading,
    description: brand.description,
    titles: titles.map((t) => titleWire(t, plays)),
  };
}

const STRICTNESS: Record<AgeRating, number> = { all: 0, r15: 1, r18: 2 };

/** The strictest rating among the article's titles: the article is age-gated like them. */
export function articleAgeRating(article: Article, snapshot: CatalogueSnapshot): AgeRating {
  let rating: AgeRating = 'all';
  for (const id of article.gameIds) {
    const own = snapshot.ageRatings.get(id) ?? 'all';
    if (STRICTNESS[own] > STRICTNESS[rating]) rating = own;
  }
  return rating;
}

export function articleSummaryWire(article: Article, snapshot: CatalogueSnapshot): ArticleSummaryWire {
  return {
    slug: article.slug,
    title: article.title,
    lead: article.lead,
    published_at: article.publishedAt,
    author: article.author,
    game_ids: article.gameIds,
    tags: article.tags,
    cover: article.cover,
    age_rating: articleAgeRating(article, snapshot),
  };
}

export function articleWire(article: Article, snapshot: CatalogueSnapshot): ArticleWire {
  return { ...articleSummaryWire(article, snapshot), body: article.body };
}
