/**
 * The one catalogue client (catalogue, search, brands, magazine; shapes from
 * lib/api-types/schemas/catalog.ts), used by getServerSideProps / getStaticProps on the Next.js
 * server and by hooks in the browser.
 * These routes are public, so the calls go through the one api client (lib/api/client.ts)
 * without a bearer. Answers are checked and mapped to camelCase here, so pages never see the
 * wire. Failures are ApiClientError (typed code + Japanese message); a malformed answer is
 * `bad_response`; "no such title/article" is `null`.
 */
import type {
  ArticleFields,
  ArticleListWire,
  ArticleResponseWire,
  ArticleSummaryWire,
  ArticleWire,
  AgeRating,
  BrandListWire,
  BrandWire,
  HomeWire,
  ScreenshotImageWire,
  SearchWire,
  TitleDetailResponseWire,
  TitleLicenseWire,
  TitleListWire,
  TitleWire,
} from '@/lib/api-types/schemas/catalog';
import { config } from '@/lib/config';
import { toGameSummary, type GameSummary } from '@/lib/types/game';
import { ApiClientError, apiRequest, clientError, messageFor } from './client';

export interface TitleDetail extends GameSummary {
  brandReading: string;
  screenshots: ScreenshotImageWire[];
  gameFolder: string;
  /** The licence its page shows (an open-source game, issue 15); absent for our own titles. */
  license?: TitleLicenseWire;
}

export interface Brand {
  id: string;
  name: string;
  reading: string;
  description: string;
  titles: GameSummary[];
}

export interface ArticleSummary extends ArticleFields {
  ageRating: AgeRating;
}

export interface Article extends ArticleSummary {
  /** Japanese Markdown, rendered by components/catalog/ArticleBody (no raw HTML). */
  body: string;
}

export interface Home {
  featured: GameSummary | null;
  newTitles: GameSummary[];
  popular: GameSummary[];
  genres: { genre: string; titles: GameSummary[] }[];
  articles: ArticleSummary[];
}

export interface SearchResult {
  query: string;
  normalizedQuery: string;
  total: number;
  titles: GameSummary[];
  nextCursor: string | null;
  suggestions: string[];
}

export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

export interface ListQuery {
  cursor?: string | null;
  limit?: number;
}

/** The server renders pages for a waiting visitor: give up sooner than the browser's 30 s. */
const SERVER_TIMEOUT_MS = 8_000;

/** The catalogue's wording of failures, from the client's one table (lib/api/client.ts). */
export const CATALOG_MESSAGES = {
  network: messageFor('network', 'catalog'),
  timeout: messageFor('timeout', 'catalog'),
  badResponse: messageFor('bad_response', 'catalog'),
  other: messageFor('unexpected', 'catalog'),
} as const;

/** The api's base URL: the server's own address on the Next.js server, the public one in the browser. */
export function catalogBaseUrl(): string {
  const server = typeof window === 'undefined' ? process.env.API_URL?.trim() : '';
  return (server || config.apiUrl).replace(/\/$/, '');
}

function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** GET a public catalogue path (no bearer); null on a 404 whose code is one of `notFoundCodes`. */
async function get<T extends object>(path: string, notFoundCodes: string[] = []): Promise<({ status: 'ok' } & T) | null> {
  try {
    return await apiRequest<T>(path, {
      auth: false,
      baseUrl: catalogBaseUrl(),
      timeoutMs: typeof window === 'undefined' ? SERVER_TIMEOUT_MS : undefined,
      subject: 'catalog',
    });
  } catch (e) {
    if (e instanceof ApiClientError && e.httpStatus === 404 && notFoundCodes.includes(e.code)) return null;
    throw e;
  }
}

const badResponse = () => clientError('bad_response', 'catalog');

/** `get` for answers that must exist (lists): a 404 is an error like any other. */
async function must<T extends object>(path: string, valid: (r: T) => boolean): Promise<T> {
  const r = await get<T>(path);
  if (!r || !valid(r)) throw badResponse();
  return r;
}

const isArray = Array.isArray;
const isTitle = (t: TitleWire | null | undefined): t is TitleWire => !!t && typeof t.id === 'string' && typeof t.title === 'string' && isArray(t.tags) && isArray(t.genres);
const titles = (list: TitleWire[]): GameSummary[] => list.filter(isTitle).map(toGameSummary);

export function toArticleSummary(w: ArticleSummaryWire): ArticleSummary {
  return {
    slug: w.slug,
    title: w.title,
    lead: w.lead,
    publishedAt: w.published_at,
    author: w.author,
    gameIds: w.game_ids ?? [],
    tags: w.tags ?? [],
    cover: w.cover,
    ageRating: w.age_rating,
  };
}

function toBrand(w: BrandWire): Brand {
  return { id: w.id, name: w.name, reading: w.reading, description: w.description, titles: titles(w.titles ?? []) };
}

/** GET /v1/catalog/home */
export async function fetchHome(): Promise<Home> {
  const r = await must<HomeWire>('/v1/catalog/home', (x) => isArray(x.new_titles) && isArray(x.popular) && isArray(x.genres) && isArray(x.articles));
  return {
    featured: isTitle(r.featured) ? toGameSummary(r.featured) : null,
    newTitles: titles(r.new_titles),
    popular: titles(r.popular),
    genres: r.genres.map((g) => ({ genre: g.genre, titles: titles(g.titles ?? []) })),
    articles: r.articles.map(toArticleSummary),
  };
}

export interface TitleListQuery extends ListQuery {
  sort?: 'new' | 'popular' | 'title';
  genre?: string;
  brand?: string;
}

/** GET /v1/catalog/titles */
export async function fetchTitles(q: TitleListQuery = {}): Promise<Paged<GameSummary>> {
  const r = await must<TitleListWire>(`/v1/catalog/titles${query({ sort: q.sort, genre: q.genre, brand: q.brand, limit: q.limit, cursor: q.cursor })}`, (x) => isArray(x.titles));
  return { items: titles(r.titles), nextCursor: r.next_cursor ?? null };
}

/** GET /v1/catalog/titles/:id; null for an unknown id. */
export async function fetchTitle(id: string): Promise<{ title: TitleDetail; related: GameSummary[] } | null> {
  const r = await get<TitleDetailResponseWire>(`/v1/catalog/titles/${encodeURIComponent(id)}`, ['game_not_found', 'not_found']);
  if (!r) return null;
  if (!isTitle(r.title) || !isArray(r.related)) throw badResponse();
  const t = r.title;
  return {
    title: {
      ...toGameSummary(t),
      brandReading: t.brand_reading ?? '',
      screenshots: isArray(t.screenshots) ? t.screenshots : [],
      gameFolder: t.game_folder,
      // never `license: undefined`: getStaticProps cannot serialise it
      ...(t.license && typeof t.license.text === 'string' && isArray(t.license.credits) ? { license: t.license } : {}),
    },
    related: titles(r.related),
  };
}

/** GET /v1/catalog/search, ranked as the api returns it. */
export async function searchCatalog(q: string, page: ListQuery = {}): Promise<SearchResult> {
  const r = await must<SearchWire>(`/v1/catalog/search${query({ q, limit: page.limit, cursor: page.cursor })}`, (x) => isArray(x.results));
  return {
    query: q,
    normalizedQuery: r.normalized_query ?? '',
    total: typeof r.total === 'number' ? r.total : r.results.length,
    titles: titles(r.results.map((x) => x.title)),
    nextCursor: r.next_cursor ?? null,
    suggestions: isArray(r.suggestions) ? r.suggestions : [],
  };
}

/** GET /v1/catalog/brands */
export async function fetchBrands(): Promise<Brand[]> {
  const r = await must<BrandListWire>('/v1/catalog/brands', (x) => isArray(x.brands));
  return r.brands.map(toBrand);
}

/** GET /v1/magazine (newest first) */
export async function fetchArticles(page: ListQuery = {}): Promise<Paged<ArticleSummary>> {
  const r = await must<ArticleListWire>(`/v1/magazine${query({ limit: page.limit, cursor: page.cursor })}`, (x) => isArray(x.articles));
  return { items: r.articles.map(toArticleSummary), nextCursor: r.next_cursor ?? null };
}

/** GET /v1/magazine/:slug; null for an unknown slug. */
export async function fetchArticle(slug: string): Promise<Article | null> {
  const r = await get<ArticleResponseWire>(`/v1/magazine/${encodeURIComponent(slug)}`, ['article_not_found', 'not_found']);
  if (!r) return null;
  const a: ArticleWire | undefined = r.article;
  if (!a || typeof a.slug !== 'string' || typeof a.body !== 'string') throw badResponse();
  return { ...toArticleSummary(a), body: a.body };
}

/** The Japanese message of any failure (for pages that show it instead of crashing). */
export function catalogErrorMessage(e: unknown): string {
  return e instanceof ApiClientError ? e.userMessage : CATALOG_MESSAGES.other;
}
