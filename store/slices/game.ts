/**
 * The game slice (spec section 3): the catalogue list the app keeps (my list's screenshots read
 * it). Reducers here are plain functions over RTK's typed action creators, not `createReducer`:
 * that pulls Immer (~4 kB gzip) into every page's first load for four one-line updates (issue 12,
 * docs/web-performance.md).
 */
import { createAction, type UnknownAction } from '@reduxjs/toolkit';
import type { GameSummary } from '@/lib/types/game';

/** Action names are the spec's (section 4), so they are written out rather than generated. */
export const updateGameList = createAction<GameSummary[]>('GAME.UPDATE_GAME_LIST');

export interface GameState {
  gameList: GameSummary[];
}

export const initialGameState: GameState = { gameList: [] };

export function gameReducer(state: GameState = initialGameState, action: UnknownAction): GameState {
  if (updateGameList.match(action)) return { ...state, gameList: action.payload };
  return state;
}
