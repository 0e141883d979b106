/**
 * /search (spec section 2): the server renders the result for ?q=, or with no q the start view
 * (genres and popular titles from the home rows); typing searches in the browser. A start view
 * reached by clearing the box has no server lists, so it fetches them once in the browser
 * (docs/decisions.md, catalogue section).
 */
import type { GetServerSideProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { CatalogError } from '@/components/catalog/CatalogError';
import { SearchResults, SearchStart } from '@/components/catalog/SearchResults';
import { SearchBox } from '@/components/title/SearchBox';
import { catalogErrorMessage, fetchHome, searchCatalog, type SearchResult } from '@/lib/api/catalog';
import { useCatalogSearch } from '@/lib/catalog/useCatalogSearch';
import { startLists, useStartLists } from '@/lib/catalog/useStartLists';
import { cleanSearchQuery, SEARCH_MAX_LENGTH } from '@/lib/catalog/searchQuery';
import type { GameSummary } from '@/lib/types/game';

interface Props {
  q: string;
  result: SearchResult | null;
  /** The empty-query state's suggestions (from the home rows). */
  popular: GameSummary[];
  genres: string[];
  error: string | null;
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ query }) => {
  // Control characters and "�" of a crafted link are dropped; nothing left is the empty query.
  const q = cleanSearchQuery(query.q);
  const props: Props = { q, result: null, popular: [], genres: [], error: null };
  try {
    if (q) {
      props.result = await searchCatalog(q);
    } else {
      Object.assign(props, startLists(await fetchHome()));
    }
  } catch (e) {
    props.error = catalogErrorMessage(e);
  }
  return { props };
};

export default function Search({ q, result, popular, genres, error }: Props) {
  const view = useCatalogSearch(q, result, error);
  const start = useStartLists({ popular, genres }, !view.error && !view.result);
  const shownQ = view.result?.query ?? '';
  return (
    <RoutePage title={shownQ ? `「${shownQ}」の検索結果` : '検索'} path="/search">
      <SearchBox value={view.input} onChange={view.setInput} onSubmit={view.submit} busy={view.loading} maxLength={SEARCH_MAX_LENGTH} />
      {view.error ? (
        <CatalogError message={view.error} />
      ) : view.result ? (
        <SearchResults result={view.result} onMore={view.loadMore} loadingMore={view.loadingMore} />
      ) : (
        <SearchStart popular={start.popular} genres={start.genres} />
      )}
    </RoutePage>
  );
}
