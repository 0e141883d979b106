/**
 * The search start view's lists (genres and popular titles, from the home rows): the server's
 * when it sent them (an empty /search), otherwise fetched once in the browser the first time the
 * start view shows without them (the box cleared after a /search?q=…). A failure keeps the hint
 * alone and is retried the next time the view shows (docs/decisions.md, catalogue section).
 */
import { useEffect, useRef, useState } from 'react';
import type { Home } from '@/lib/api/catalog';
import type { GameSummary } from '@/lib/types/game';
import { loadCatalog } from './loadCatalog';

export interface StartLists {
  popular: GameSummary[];
  genres: string[];
}

/** The start view's lists from the home rows: the first popular titles and the genre names. */
export function startLists(home: Home): StartLists {
  return { popular: home.popular.slice(0, 8), genres: home.genres.map((g) => g.genre) };
}

export function useStartLists(server: StartLists, shown: boolean): StartLists {
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
