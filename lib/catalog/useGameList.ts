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
 * Fills the store's game.gameList (GAME.UPDATE_GAME_LIST) from the catalogue api, once per page
 * load, from whichever catalogue page the visitor opens first (docs/web-catalogue.md). The list
 * holds every title, age-rated ones included: components filter through the safe check.
 * A failure leaves the list empty and is retried on the next catalogue page.
 */
/** Fetches the list into the store once, while the store has none (shared by the two hooks below). */
function useFillGameList(empty: boolean): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!empty) return;
    // One request for every page that mounts meanwhile; the store keeps the answer.
    inFlight ??= fetchWholeCatalogue().finally(() => {
      inFlight = null;
    });
    inFlight.then((list) => list.length > 0 && dispatch(updateGameList(list))).catch(() => undefined);
  }, [empty, dispatch]);
}

/** The list, for components that show it (and re-render when it arrives). */
export function useGameList(): GameSummary[] {
  const gameList = useAppSelector((s) => s.game.gameList);
  useFillGameList(gameList.length === 0);
  return gameList;
}

/**
 * Fills the list without reading it: for catalogue pages, which do not show it. Reading it would
 * re-render the whole page when the list arrives, a long task on a phone right after the page
 * became interactive (issue 12).
 */
export function useLoadGameList(): void {
  useFillGameList(useAppSelector((s) => s.game.gameList.length === 0));
}
