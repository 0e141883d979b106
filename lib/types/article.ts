/**
 * A magazine article's own fields, as content/magazine/<slug>.md holds them (front matter, see
 * content/magazine/README.md). The api's seed (server/api/services/catalogue) and the web's
 * catalogue client (lib/api/catalog.ts) both build on it.
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
