/**
 * The Redux store (spec section 3): the root reducer, one store per request on the server and per
 * tab in the browser, and the types the app uses with it (RootState, AppDispatch, AppThunk;
 * redux-templates' `app/store.ts`). Slices, their selectors and their thunks live in ./slices.
 * store/ is the bottom layer: it imports only lib/types (lint enforces it).
 */
import { combineReducers, configureStore, type Action, type ThunkAction } from '@reduxjs/toolkit';
import { gameReducer } from './slices/game';
import { modalReducer } from './slices/modal';
import { toastReducer } from './slices/toast';
import { userReducer } from './slices/user';

export const rootReducer = combineReducers({
  game: gameReducer,
  modal: modalReducer,
  toast: toastReducer,
  user: userReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** One store per request on the server and one per tab in the browser (with-redux pattern). */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({ reducer: rootReducer, preloadedState });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
/** A thunk of this store: `(dispatch, getState) => R`, dispatched like an action. */
export type AppThunk<ReturnType = void> = ThunkAction<ReturnType, RootState, unknown, Action>;
