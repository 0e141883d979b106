import { createAction, createReducer } from '@reduxjs/toolkit';
import type { PlayHistory, User } from '@/lib/types/user';

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

export const userReducer = createReducer(initialUserState, (builder) => {
  builder
    .addCase(loggedIn, (state, action) => {
      state.user = action.payload;
      state.authReady = true;
      if (!action.payload) state.playHistories = [];
    })
    .addCase(updatePlayHistories, (state, action) => {
      state.playHistories = action.payload;
    })
    .addCase(setLoginErrorCode, (state, action) => {
      state.loginErrorCode = action.payload;
    });
});
