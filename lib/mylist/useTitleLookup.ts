/**
 * Screenshots carry only a game id: their title name and age rating come from the catalogue in
 * the store (game.gameList, filled by useGameList on the first page that needs it).
 */
import { useMemo } from 'react';
import { useGameList } from '@/lib/catalog/useGameList';
import type { GameSummary } from '@/lib/types/game';

export function useTitleLookup(): (gameId: string) => GameSummary | undefined {
  const games = useGameList();
  return useMemo(() => {
    const byId = new Map(games.map((g) => [g.id, g]));
    return (gameId: string) => byId.get(gameId);
  }, [games]);
}
