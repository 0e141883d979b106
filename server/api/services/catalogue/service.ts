/**
 * The public catalogue and magazine reads (docs/catalogue.md). Titles, brands and articles come
 * from the in-memory snapshot (reloaded after every seed); plays are read live per request.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type {
  ArticleListWire,
  ArticleResponseWire,
  BrandListWire,
  HomeWire,
  SearchWire,
  TitleDetailResponseWire,
  TitleListWire,
} from '../../../../lib/api-types/schemas/catalog';
import { ApiError } from '../../errors';
import { featuredTitle, genreRows, HOME_ARTICLES, HOME_ROW, relatedTitles } from './home';
import { articleOrder, newOrder, popularOrder, titleSortOrder, type TitleSort } from './orders';
import { pageOf, sortBy } from './paging';
import { loadPlays } from './plays';
import { searchCatalogue, searchOrder } from './search';
import { onCatalogueSeeded } from './seed';
import { loadSnapshot, type CatalogueSnapshot } from './snapshot';
import { articleSummaryWire, articleWire, brandWire, titleDetailWire, titleWire, type Plays } from './wire';

export interface TitleListQuery {
  sort: TitleSort;
  genre?: string;
  brand?: string;
  limit: number;
  cursor?: string;
}

export class CatalogueService {
  private current: CatalogueSnapshot | null = null;
  private loading: Promise<CatalogueSnapshot> | null = null;
  /** Bumped by each seed: a load that started before it must not become current. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: pg.Pool,
    private readonly log: FastifyBaseLogger,
  ) {
    // A seed (at start, or from the sweep after a database outage) makes the next read reload.
    this.unsubscribe = onCatalogueSeeded(db, () => {
      this.generation++;
      this.current = null;
      this.loading = null;
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** The snapshot, loaded on first use and after each seed (one load at a time). */
  async snapshot(): Promise<CatalogueSnapshot> {
    if (this.current) return this.current;
    const generation = this.generation;
    this.loading ??= loadSnapshot(this.db)
      .then((snapshot) => {
        if (generation === this.generation) this.current = snapshot;
        this.log.info({ titles: snapshot.titles.length, articles: snapshot.articles.length }, 'catalogue snapshot loaded');
        return snapshot;
      })
      .finally(() => {
        if (generation === this.generation) this.loading = null;
      });
    return this.loading;
  }

  private async read(): Promise<{ snapshot: CatalogueSnapshot; plays: Plays }> {
    const [snapshot, plays] = await Promise.all([this.snapshot(), loadPlays(this.db)]);
    return { snapshot, plays };
  }

  async home(): Promise<HomeWire> {
    const { snapshot, plays } = await this.read();
    const wire = (list: CatalogueSnapshot['titles']) => list.map((t) => titleWire(t, plays));
    const featured = featuredTitle(snapshot.titles, plays);
    return {
      status: 'ok',
      featured: featured ? titleWire(featured, plays) : null,
      new_titles: wire(sortBy(snapshot.titles, newOrder).slice(0, HOME_ROW)),
      popular: wire(sortBy(snapshot.titles, popularOrder(plays)).slice(0, HOME_ROW)),
      genres: genreRows(snapshot.titles).map((row) => ({ genre: row.genre, titles: wire(row.titles) })),
      articles: snapshot.articles.slice(0, HOME_ARTICLES).map((a) => articleSummaryWire(a, snapshot)),
    };
  }

  async titles(query: TitleListQuery): Promise<TitleListWire> {
    const { snapshot, plays } = await this.read();
    const matching = snapshot.titles.filter(
      (t) => (!query.genre || t.genres.includes(query.genre)) && (!query.brand || t.brandId === query.brand),
    );
    const order = titleSortOrder(query.sort, plays);
    const page = pageOf(sortBy(matching, order), order, query.limit, query.cursor);
    return { status: 'ok', titles: page.items.map((t) => titleWire(t, plays)), next_cursor: page.next };
  }

  async title(id: string): Promise<TitleDetailResponseWire> {
    const { snapshot, plays } = await this.read();
    const title = snapshot.byId.get(id);
    if (!title) throw new ApiError('game_not_found');
    return {
      status: 'ok',
      title: titleDetailWire(title, plays),
      related: relatedTitles(title, snapshot.titles, plays).map((t) => titleWire(t, plays)),
    };
  }

  async search(q: string, limit: number, cursor?: string): Promise<SearchWire> {
    const { snapshot, plays } = await this.read();
    const outcome = searchCatalogue(snapshot, q, plays);
    const order = searchOrder(plays);
    const page = pageOf(sortBy(outcome.hits, order), order, limit, cursor);
    return {
      status: 'ok',
      normalized_query: outcome.normalized,
      total: outcome.hits.length,
      results: page.items.map((hit) => ({ title: titleWire(hit.title, plays), score: hit.score })),
      next_cursor: page.next,
      suggestions: outcome.suggestions,
    };
  }

  async brands(): Promise<BrandListWire> {
    const { snapshot, plays } = await this.read();
    return {
      status: 'ok',
      brands: snapshot.brands.map((brand) => brandWire(brand, snapshot.titles.filter((t) => t.brandId === brand.id), plays)),
    };
  }

  async articles(limit: number, cursor?: string): Promise<ArticleListWire> {
    const snapshot = await this.snapshot();
    const page = pageOf(snapshot.articles, articleOrder, limit, cursor);
    return { status: 'ok', articles: page.items.map((a) => articleSummaryWire(a, snapshot)), next_cursor: page.next };
  }

  async article(slug: string): Promise<ArticleResponseWire> {
    const snapshot = await this.snapshot();
    const article = snapshot.articleBySlug.get(slug);
    if (!article) throw new ApiError('article_not_found');
    return { status: 'ok', article: articleWire(article, snapshot) };
  }
}
