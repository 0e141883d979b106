/**
 * The catalogue, magazine and my-list API's wire contract (docs/catalogue.md), written once as
 * TypeBox schemas: the api serialises its answers with them (fields not in a schema are dropped),
 * and their `Static` types are what the browser / Next.js server read (lib/api/catalog.ts,
 * lib/api/mylist.ts, `import type` only). snake_case on the wire like the session API; the web's
 * clients map them to camelCase. Each name is both the schema and its type.
 *
 * Public (no bearer needed; a bearer, when sent, is ignored): everything under /v1/catalog and
 * /v1/magazine. Catalogue data is public and the Next.js server renders it without a user.
 * Verified users only (bearer; anonymous or unconfirmed e-mail → 403 verified_required): everything under /v1/mylist.
 * Lists are paginated with an opaque `cursor` and `limit` (1..100, default 20); `next_cursor` is
 * null on the last page.
 */
import { Type, type Static } from '@sinclair/typebox';
import { closed, NextCursor, okAnswer } from './common';

export const AGE_RATINGS = ['all', 'r15', 'r18'] as const;
export const AgeRating = Type.Union(AGE_RATINGS.map((rating) => Type.Literal(rating)));
export type AgeRating = Static<typeof AgeRating>;

const Strings = Type.Array(Type.String());

const titleFields = {
  id: Type.String(),
  title: Type.String(),
  /** Kana reading of the title (hiragana). */
  reading: Type.String(),
  brand_id: Type.String(),
  brand: Type.String(),
  description: Type.String(),
  tags: Strings,
  genres: Strings,
  /** YYYY-MM-DD */
  release_date: Type.String(),
  age_rating: AgeRating,
  /** Path under the web's public folder, e.g. /games/<id>/keyart.png */
  key_art: Type.String(),
  /** Sessions that reached play in the last 30 days (the "popular" order). */
  plays: Type.Integer(),
  /** Only subscribers may start it (GET /v1/game/:id/start → subscription_required). docs/purchase.md */
  premium: Type.Boolean(),
};

/** One title as lists show it. */
export const TitleWire = closed(titleFields);
export type TitleWire = Static<typeof TitleWire>;
const TitleList = Type.Array(TitleWire);

export const ScreenshotImageWire = closed({
  /** Path under the web's public folder, e.g. /games/<id>/screenshots/01.png */
  src: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  /** Japanese alt text */
  alt: Type.String(),
});
export type ScreenshotImageWire = Static<typeof ScreenshotImageWire>;

/**
 * The licence a title is shown under, when its meta.json names one (an open-source game such as
 * "The Question", issue 15): its key art and screenshots are copies of the game's art, so the
 * title page shows the copyright, the credits and the permission notice with them.
 */
export const TitleLicenseWire = closed({
  /** e.g. "Expat (MIT)" */
  name: Type.String(),
  copyright: Type.String(),
  /** One line a credit, Japanese role first (e.g. "音楽: Alessio"). */
  credits: Strings,
  /** Where the game comes from (e.g. "Debian renpy-thequestion 8.0.3+dfsg-1"). */
  source: Type.String(),
  /** The licence text as it must accompany copies (games/<id>/LICENSE), paragraphs split by a blank line. */
  text: Type.String(),
});
export type TitleLicenseWire = Static<typeof TitleLicenseWire>;

/** A title page: the list fields plus what only the page shows. */
export const TitleDetailWire = closed({
  ...titleFields,
  brand_reading: Type.String(),
  screenshots: Type.Array(ScreenshotImageWire),
  /** The games/<folder> the game host plays (today always the id). */
  game_folder: Type.String(),
  /** Only for a title with a licence to show (meta.json "license"). */
  license: Type.Optional(TitleLicenseWire),
});
export type TitleDetailWire = Static<typeof TitleDetailWire>;

export const BrandWire = closed({
  id: Type.String(),
  name: Type.String(),
  reading: Type.String(),
  description: Type.String(),
  titles: TitleList,
});
export type BrandWire = Static<typeof BrandWire>;

// ── magazine ──────────────────────────────────────────────────────────────────────────────

/**
 * A magazine article's own fields, as content/magazine/<slug>.md holds them (front matter, see
 * content/magazine/README.md): camelCase, not a wire shape. The api's seed
 * (server/api/services/catalogue) and the web's catalogue client (lib/api/catalog.ts) build on it.
 */
export interface ArticleFields {
  slug: string;
  title: string;
  lead: string;
  /** YYYY-MM-DD */
  publishedAt: string;
  author: string;
  gameIds: string[];
  tags: string[];
  cover: string;
}

const articleSummaryFields = {
  slug: Type.String(),
  title: Type.String(),
  lead: Type.String(),
  /** YYYY-MM-DD */
  published_at: Type.String(),
  author: Type.String(),
  game_ids: Strings,
  tags: Strings,
  cover: Type.String(),
  /** The strictest age rating among the article's titles (age-gated like them). */
  age_rating: AgeRating,
};

export const ArticleSummaryWire = closed(articleSummaryFields);
export type ArticleSummaryWire = Static<typeof ArticleSummaryWire>;

export const ArticleWire = closed({
  ...articleSummaryFields,
  /** Japanese Markdown (content/magazine/README.md): rendered by the web, no raw HTML. */
  body: Type.String(),
});
export type ArticleWire = Static<typeof ArticleWire>;

// ── catalogue answers ─────────────────────────────────────────────────────────────────────

/** GET /v1/catalog/home */
export const HomeWire = okAnswer({
  featured: Type.Union([TitleWire, Type.Null()]),
  new_titles: TitleList,
  popular: TitleList,
  genres: Type.Array(closed({ genre: Type.String(), titles: TitleList })),
  articles: Type.Array(ArticleSummaryWire),
});
export type HomeWire = Static<typeof HomeWire>;

/** GET /v1/catalog/titles?sort=new|popular|title&genre=&brand=&limit=&cursor= */
export const TitleListWire = okAnswer({ titles: TitleList, next_cursor: NextCursor });
export type TitleListWire = Static<typeof TitleListWire>;

/** GET /v1/catalog/titles/:id → 404 game_not_found for an unknown or malformed id. */
export const TitleDetailResponseWire = okAnswer({
  title: TitleDetailWire,
  /** Same brand, genre or tags first; never the title itself; at most 6. */
  related: TitleList,
});
export type TitleDetailResponseWire = Static<typeof TitleDetailResponseWire>;

/** GET /v1/catalog/search?q=&limit=&cursor= (q up to 100 characters; longer → 400). */
export const SearchWire = okAnswer({
  /** The normalised query (lib/search/normalize.ts) the ranking used. */
  normalized_query: Type.String(),
  total: Type.Integer(),
  results: Type.Array(closed({ title: TitleWire, score: Type.Number() })),
  next_cursor: NextCursor,
  /** When nothing matches (or q is empty): titles or words worth trying instead. */
  suggestions: Strings,
});
export type SearchWire = Static<typeof SearchWire>;

/** GET /v1/catalog/brands */
export const BrandListWire = okAnswer({ brands: Type.Array(BrandWire) });
export type BrandListWire = Static<typeof BrandListWire>;

/** GET /v1/magazine?limit=&cursor= (newest first) */
export const ArticleListWire = okAnswer({ articles: Type.Array(ArticleSummaryWire), next_cursor: NextCursor });
export type ArticleListWire = Static<typeof ArticleListWire>;

/** GET /v1/magazine/:slug → 404 article_not_found */
export const ArticleResponseWire = okAnswer({ article: ArticleWire });
export type ArticleResponseWire = Static<typeof ArticleResponseWire>;

// ── my list ───────────────────────────────────────────────────────────────────────────────

export const BookmarkWire = closed({ game_id: Type.String(), created_at: Type.String(), title: TitleWire });
export type BookmarkWire = Static<typeof BookmarkWire>;

/** GET /v1/mylist/bookmarks?limit=&cursor= (newest first) */
export const BookmarkListWire = okAnswer({ bookmarks: Type.Array(BookmarkWire), next_cursor: NextCursor });
export type BookmarkListWire = Static<typeof BookmarkListWire>;

/**
 * GET /v1/mylist/bookmarks/:gameId → { bookmarked }
 * PUT /v1/mylist/bookmarks/:gameId → { bookmarked: true } (idempotent; unknown title → 404 game_not_found)
 * DELETE /v1/mylist/bookmarks/:gameId → { bookmarked: false } (not bookmarked → 404 bookmark_not_found)
 */
export const BookmarkStateWire = okAnswer({ game_id: Type.String(), bookmarked: Type.Boolean() });
export type BookmarkStateWire = Static<typeof BookmarkStateWire>;

/** One line of the play history: written by the server when a session ends. */
export const PlayHistoryWire = closed({
  game_id: Type.String(),
  title: TitleWire,
  /** ISO time the last session ended */
  last_played_at: Type.String(),
  /** Seconds played over all sessions (from `playing` to the end). */
  total_seconds: Type.Integer(),
  play_count: Type.Integer(),
});
export type PlayHistoryWire = Static<typeof PlayHistoryWire>;

/** GET /v1/mylist/history?limit=&cursor= (last played first) */
export const PlayHistoryListWire = okAnswer({ histories: Type.Array(PlayHistoryWire), next_cursor: NextCursor });
export type PlayHistoryListWire = Static<typeof PlayHistoryListWire>;
