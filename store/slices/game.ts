import { createAction, createReducer } from '@reduxjs/toolkit';
import type { GameSummary } from '@/lib/types/game';

/** Action names are the spec's (section 4), so they are written out rather than generated. */
export const updateGameList = createAction<GameSummary[]>('GAME.UPDATE_GAME_LIST');

export interface GameState {
  gameList: GameSummary[];
}

export const initialGameState: GameState = { gameList: [] };

export const gameReducer = createReducer(initialGameState, (builder) => {
  builder.addCase(updateGameList, (state, action) => {
    state.gameList = action.payload;
  });
});
