import type { GetServerSideProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { CatalogError } from '@/components/catalog/CatalogError';
import { SearchResults, SearchStart } from '@/components/catalog/SearchResults';
import { SearchBox } from '@/components/title/SearchBox';
import { catalogErrorMessage, fetchHome, searchCatalog, type SearchResult } from '@/lib/api/catalog';
import { useCatalogSearch } from '@/lib/catalog/useCatalogSearch';
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
      const home = await fetchHome();
      props.popular = home.popular.slice(0, 8);
      props.genres = home.genres.map((g) => g.genre);
    }
  } catch (e) {
    props.error = catalogErrorMessage(e);
  }
  return { props };
};

export default function Search({ q, result, popular, genres, error }: Props) {
  const view = useCatalogSearch(q, result, error);
  const shownQ = view.result?.query ?? '';
  return (
    <RoutePage title={shownQ ? `「${shownQ}」の検索結果` : '検索'} path="/search">
      <SearchBox value={view.input} onChange={view.setInput} onSubmit={view.submit} busy={view.loading} maxLength={SEARCH_MAX_LENGTH} />
      {view.error ? (
        <CatalogError message={view.error} />
      ) : view.result ? (
        <SearchResults result={view.result} onMore={view.loadMore} loadingMore={view.loadingMore} />
      ) : (
        <SearchStart popular={popular} genres={genres} />
      )}
    </RoutePage>
  );
}
