/**
 * The user slice (spec section 3): the signed-in user (or its absence), the auth-ready gate, the
 * play histories and the last sign-in error, with its selectors. Selectors take the slice's own
 * part of the state, so they need no import of the root state (which imports this file).
 */
import { createAction, type UnknownAction } from '@reduxjs/toolkit';
import { authStateOf, type PlayHistory, type User } from '@/lib/types/user';

/** `user` is undefined until the first auth report (loading), null when there is no user. */
export interface UserState {
  user: User | null | undefined;
  /** True once the first auth report and its token have resolved (spec section 4 loading gate). */
  authReady: boolean;
  playHistories: PlayHistory[];
  loginErrorCode: string | null;
}

export const initialUserState: UserState = {
  user: undefined,
  authReady: false,
  playHistories: [],
  loginErrorCode: null,
};

export const loggedIn = createAction<User | null>('USER.LOGGED_IN');
export const updatePlayHistories = createAction<PlayHistory[]>('USER.UPDATE_PLAY_HISTORIES');
/** The spec's "login-error action": stores the last sign-in error code (null clears it). */
export const setLoginErrorCode = createAction<string | null>('USER.LOGIN_ERROR');

/** A plain reducer over the typed action creators (no Immer in the first load: store/slices/game.ts). */
export function userReducer(state: UserState = initialUserState, action: UnknownAction): UserState {
  if (loggedIn.match(action)) {
    return { ...state, user: action.payload, authReady: true, playHistories: action.payload ? state.playHistories : [] };
  }
  if (updatePlayHistories.match(action)) return { ...state, playHistories: action.payload };
  if (setLoginErrorCode.match(action)) return { ...state, loginErrorCode: action.payload };
  return state;
}

/** The part of the root state the user selectors read. */
interface WithUser {
  user: UserState;
}

export const selectUser = (s: WithUser) => s.user.user;
export const selectAuthState = (s: WithUser) => authStateOf(s.user.user);
