import { combineReducers, configureStore } from '@reduxjs/toolkit';
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
