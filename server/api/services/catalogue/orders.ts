/** The catalogue's list orders, as keyset orders (paging.ts). Ties always end on the id. */
import type { Order } from './paging';
import type { CatalogueTitle } from './snapshot';
import type { Article } from './types';
import type { Plays } from './wire';

export type TitleSort = 'new' | 'popular' | 'title';
export const TITLE_SORTS: readonly TitleSort[] = ['new', 'popular', 'title'];

/** Newest release first. */
export const newOrder: Order<CatalogueTitle> = {
  name: 'new',
  key: (t) => [t.releaseDate, t.id],
  dirs: [-1, 1],
  shape: ['string', 'string'],
};

/** By kana reading (hiragana code points follow the gojūon order closely enough for a list). */
export const titleOrder: Order<CatalogueTitle> = {
  name: 'title',
  key: (t) => [t.reading, t.id],
  dirs: [1, 1],
  shape: ['string', 'string'],
};

/** Most plays in the last 30 days first; ties: newest. */
export function popularOrder(plays: Plays): Order<CatalogueTitle> {
  return {
    name: 'popular',
    key: (t) => [plays.get(t.id) ?? 0, t.releaseDate, t.id],
    dirs: [-1, -1, 1],
    shape: ['number', 'string', 'string'],
  };
}

export function titleSortOrder(sort: TitleSort, plays: Plays): Order<CatalogueTitle> {
  if (sort === 'popular') return popularOrder(plays);
  return sort === 'title' ? titleOrder : newOrder;
}

/** Magazine: newest first. */
export const articleOrder: Order<Article> = {
  name: 'magazine',
  key: (a) => [a.publishedAt, a.slug],
  dirs: [-1, 1],
  shape: ['string', 'string'],
};
