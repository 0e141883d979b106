import { useEffect } from 'react';
import { fetchTitles } from '@/lib/api/catalog';
import type { GameSummary } from '@/lib/types/game';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { updateGameList } from '@/store/slices/game';

/** Pages of /v1/catalog/titles fetched at most (100 each): far more than the catalogue holds. */
const MAX_PAGES = 10;

let inFlight: Promise<GameSummary[]> | null = null;

/** Every title, by title, following next_cursor. */
async function fetchWholeCatalogue(): Promise<GameSummary[]> {
  const all: GameSummary[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i += 1) {
    const page = await fetchTitles({ sort: 'title', limit: 100, cursor });
    all.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return all;
}

/**
 * The store's game.gameList (GAME.UPDATE_GAME_LIST), filled from the catalogue api on first use
 * in a page load by a component that shows it (my list's screenshots; docs/web-catalogue.md).
 * Catalogue pages do not ask for it: no api request a page does not need while it loads (issue
 * 12). The list holds every title, age-rated ones included: components filter through the safe
 * check. A failure leaves the list empty and is retried by the next component that needs it.
 */
export function useGameList(): GameSummary[] {
  const dispatch = useAppDispatch();
  const gameList = useAppSelector((s) => s.game.gameList);
  const empty = gameList.length === 0;
  useEffect(() => {
    if (!empty) return;
    // One request for every component that mounts meanwhile; the store keeps the answer.
    inFlight ??= fetchWholeCatalogue().finally(() => {
      inFlight = null;
    });
    inFlight.then((list) => list.length > 0 && dispatch(updateGameList(list))).catch(() => undefined);
  }, [empty, dispatch]);
  return gameList;
}
