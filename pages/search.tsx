/**
 * /search (spec section 2): the server renders the result for ?q=, or with no q the start view
 * (genres and popular titles from the home rows); typing searches in the browser. A start view
 * reached by clearing the box has no server lists, so it fetches them once in the browser
 * (docs/decisions.md, catalogue section).
 */
import { useEffect, useRef, useState } from 'react';
import type { GetServerSideProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { CatalogError } from '@/components/catalog/CatalogError';
import { SearchResults, SearchStart } from '@/components/catalog/SearchResults';
import { SearchBox } from '@/components/title/SearchBox';
import { catalogErrorMessage, fetchHome, searchCatalog, type Home, type SearchResult } from '@/lib/api/catalog';
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

interface StartLists {
  popular: GameSummary[];
  genres: string[];
}

/** The start view's lists from the home rows: the first popular titles and the genre names. */
function startLists(home: Home): StartLists {
  return { popular: home.popular.slice(0, 8), genres: home.genres.map((g) => g.genre) };
}

/** Loaded only when the browser needs it (issue 12: not in the page's first load). */
const loadCatalog = () => import('@/lib/api/catalog');

/**
 * The start view's lists: the server's when it sent them (an empty /search), otherwise fetched
 * once in the browser the first time the start view shows without them (the box cleared after
 * a /search?q=…). A failure keeps the hint alone and is retried the next time it shows.
 */
function useStartLists(server: StartLists, shown: boolean): StartLists {
  const [fetched, setFetched] = useState<StartLists | null>(null);
  const asked = useRef(false);
  const hasServer = server.popular.length > 0 || server.genres.length > 0;
  const needed = shown && !hasServer && !fetched;
  useEffect(() => {
    if (!needed || asked.current) return;
    asked.current = true;
    loadCatalog()
      .then((api) => api.fetchHome())
      .then((home) => setFetched(startLists(home)))
      .catch(() => {
        asked.current = false;
      });
  }, [needed]);
  return hasServer || !fetched ? server : fetched;
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
