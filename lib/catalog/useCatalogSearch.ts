/**
 * The search page's state: the box, the result, loading and paging (spec section 2 /search).
 * The catalogue api (and the api client under it) is loaded when the first search runs in the
 * browser, not in the page's first load (issue 12): the first result is the server's. Only the
 * messages table (lib/api/messages.ts) comes in the first load, to word a search whose api chunk
 * cannot load (offline).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import Router from 'next/router';
import debounce from 'lodash.debounce';
import type { SearchResult } from '@/lib/api/catalog';
import { lazyFailureMessage } from '@/lib/api/lazy';
import { messageFor } from '@/lib/api/messages';
import { track } from '@/lib/analytics';
import { loadCatalog } from './loadCatalog';
import { cleanSearchQuery } from './searchQuery';

/** When the api's chunk itself cannot load (offline): the client's `catalog.network` wording. */
const SEARCH_OFFLINE_MESSAGE = messageFor('network', 'catalog');

/** The Japanese message for a failed search. */
const catalogFailure = lazyFailureMessage(loadCatalog, (api, e) => api.catalogErrorMessage(e));
const failureMessage = (e: unknown) => catalogFailure(e, SEARCH_OFFLINE_MESSAGE);

/** Typing pauses this long before the search runs (and the URL follows). */
export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchView {
  /** What the box shows. */
  input: string;
  setInput: (q: string) => void;
  /** Runs the search for the box's text now (Enter). */
  submit: () => void;
  result: SearchResult | null;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  loadMore: () => void;
}

/** The analytics search event (spec section 7), once per result shown for a query. */
function trackSearch(r: SearchResult) {
  if (r.query.trim()) track('search', { search_term: r.query, normalized_query: r.normalizedQuery, result_count: r.total });
}

/**
 * Search as you type: the server renders the result for the q in the URL; in the browser each
 * pause in typing fetches /v1/catalog/search and replaces the URL (shallow, no server round
 * trip). Answers that arrive after a newer query are dropped.
 */
export function useCatalogSearch(initialQ: string, initial: SearchResult | null, initialError: string | null): SearchView {
  const [input, setInputState] = useState(initialQ);
  const [result, setResult] = useState(initial);
  const [error, setError] = useState(initialError);
  const [loading, setLoading] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const latest = useRef(0);

  // A new server render (a tag link, back/forward to a full navigation) replaces the state.
  const [rendered, setRendered] = useState(initial);
  if (rendered !== initial) {
    setRendered(initial);
    setInputState(initialQ);
    setResult(initial);
    setError(initialError);
  }
  useEffect(() => {
    if (initial) trackSearch(initial);
  }, [initial]);

  const run = useCallback(async (raw: string) => {
    const q = cleanSearchQuery(raw);
    const id = ++latest.current;
    void Router.replace({ pathname: '/search', query: q ? { q } : {} }, undefined, { shallow: true, scroll: false });
    if (!q) {
      setResult(null);
      setError(null);
      setLoading(false);
      return;
    }
    setLoading(true);
    try {
      const r = await (await loadCatalog()).searchCatalog(q);
      if (id !== latest.current) return;
      setResult(r);
      setError(null);
      trackSearch(r);
    } catch (e) {
      const message = await failureMessage(e);
      if (id === latest.current) setError(message);
    } finally {
      if (id === latest.current) setLoading(false);
    }
  }, []);

  // One debounced runner for the page's life (run is stable), cancelled on unmount.
  const debounced = useRef<ReturnType<typeof debounce<(q: string) => void>> | null>(null);
  useEffect(() => {
    const d = debounce((q: string) => void run(q), SEARCH_DEBOUNCE_MS);
    debounced.current = d;
    return () => d.cancel();
  }, [run]);

  const setInput = useCallback((q: string) => {
    setInputState(q);
    debounced.current?.(q);
  }, []);

  const submit = useCallback(() => {
    debounced.current?.cancel();
    void run(input);
  }, [run, input]);

  const loadMore = useCallback(async () => {
    if (!result?.nextCursor || loadingMore) return;
    const id = latest.current;
    setLoadingMore(true);
    try {
      const more = await (await loadCatalog()).searchCatalog(result.query, { cursor: result.nextCursor });
      if (id === latest.current) setResult({ ...more, titles: [...result.titles, ...more.titles] });
    } catch (e) {
      const message = await failureMessage(e);
      if (id === latest.current) setError(message);
    } finally {
      setLoadingMore(false);
    }
  }, [result, loadingMore]);

  return { input, setInput, submit, result, loading, loadingMore, error, loadMore: () => void loadMore() };
}
