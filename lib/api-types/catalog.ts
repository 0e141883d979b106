/**
 * Wire types of the catalogue, magazine and my-list API (docs/catalogue.md), shared by the api
 * (which produces them) and the browser / Next.js server (which read them). snake_case on the
 * wire like the session API; lib/api/catalog.ts and lib/api/mylist.ts map them to camelCase.
 *
 * Public (no bearer needed; a bearer, when sent, is ignored): everything under /v1/catalog and
 * /v1/magazine. Catalogue data is public and the Next.js server renders it without a user.
 * Verified users only (bearer; anonymous → 403 verified_required): everything under /v1/mylist.
 * Lists are paginated with an opaque `cursor` and `limit` (1..100, default 20); `next_cursor` is
 * null on the last page.
 */

export type AgeRating = 'all' | 'r15' | 'r18';

/** One title as lists show it. */
export interface TitleWire {
  id: string;
  title: string;
  /** Kana reading of the title (hiragana). */
  reading: string;
  brand_id: string;
  brand: string;
  description: string;
  tags: string[];
  genres: string[];
  /** YYYY-MM-DD */
  release_date: string;
  age_rating: AgeRating;
  /** Path under the web's public folder, e.g. /games/<id>/keyart.png */
  key_art: string;
  /** Sessions that reached play in the last 30 days (the "popular" order). */
  plays: number;
}

export interface ScreenshotImageWire {
  /** Path under the web's public folder, e.g. /games/<id>/screenshots/01.png */
  src: string;
  width: number;
  height: number;
  /** Japanese alt text */
  alt: string;
}

/** A title page: the list fields plus what only the page shows. */
export interface TitleDetailWire extends TitleWire {
  brand_reading: string;
  screenshots: ScreenshotImageWire[];
  /** The games/<folder> the game host plays (today always the id). */
  game_folder: string;
}

export interface BrandWire {
  id: string;
  name: string;
  reading: string;
  description: string;
  titles: TitleWire[];
}

export interface ArticleSummaryWire {
  slug: string;
  title: string;
  lead: string;
  /** YYYY-MM-DD */
  published_at: string;
  author: string;
  game_ids: string[];
  tags: string[];
  cover: string;
  /** The strictest age rating among the article's titles (age-gated like them). */
  age_rating: AgeRating;
}

export interface ArticleWire extends ArticleSummaryWire {
  /** Japanese Markdown (content/magazine/README.md): rendered by the web, no raw HTML. */
  body: string;
}

/** GET /v1/catalog/home */
export interface HomeWire {
  status: 'ok';
  featured: TitleWire | null;
  new_titles: TitleWire[];
  popular: TitleWire[];
  genres: { genre: string; titles: TitleWire[] }[];
  articles: ArticleSummaryWire[];
}

/** GET /v1/catalog/titles?sort=new|popular|title&genre=&brand=&limit=&cursor= */
export interface TitleListWire {
  status: 'ok';
  titles: TitleWire[];
  next_cursor: string | null;
}

/** GET /v1/catalog/titles/:id → 404 game_not_found for an unknown or malformed id. */
export interface TitleDetailResponseWire {
  status: 'ok';
  title: TitleDetailWire;
  /** Same brand, genre or tags first; never the title itself; at most 6. */
  related: TitleWire[];
}

/** GET /v1/catalog/search?q=&limit=&cursor= (q up to 100 characters; longer → 400). */
export interface SearchWire {
  status: 'ok';
  /** The normalised query (lib/search/normalize.ts) the ranking used. */
  normalized_query: string;
  total: number;
  results: { title: TitleWire; score: number }[];
  next_cursor: string | null;
  /** When nothing matches (or q is empty): titles or words worth trying instead. */
  suggestions: string[];
}

/** GET /v1/catalog/brands */
export interface BrandListWire {
  status: 'ok';
  brands: BrandWire[];
}

/** GET /v1/magazine?limit=&cursor= (newest first) */
export interface ArticleListWire {
  status: 'ok';
  articles: ArticleSummaryWire[];
  next_cursor: string | null;
}

/** GET /v1/magazine/:slug → 404 article_not_found */
export interface ArticleResponseWire {
  status: 'ok';
  article: ArticleWire;
}

export interface BookmarkWire {
  game_id: string;
  created_at: string;
  title: TitleWire;
}

/** GET /v1/mylist/bookmarks?limit=&cursor= (newest first) */
export interface BookmarkListWire {
  status: 'ok';
  bookmarks: BookmarkWire[];
  next_cursor: string | null;
}

/**
 * GET /v1/mylist/bookmarks/:gameId → { bookmarked }
 * PUT /v1/mylist/bookmarks/:gameId → { bookmarked: true } (idempotent; unknown title → 404 game_not_found)
 * DELETE /v1/mylist/bookmarks/:gameId → { bookmarked: false } (not bookmarked → 404 bookmark_not_found)
 */
export interface BookmarkStateWire {
  status: 'ok';
  game_id: string;
  bookmarked: boolean;
}

/** One line of the play history: written by the server when a session ends. */
export interface PlayHistoryWire {
  game_id: string;
  title: TitleWire;
  /** ISO time the last session ended */
  last_played_at: string;
  /** Seconds played over all sessions (from `playing` to the end). */
  total_seconds: number;
  play_count: number;
}

/** GET /v1/mylist/history?limit=&cursor= (last played first) */
export interface PlayHistoryListWire {
  status: 'ok';
  histories: PlayHistoryWire[];
  next_cursor: string | null;
}
