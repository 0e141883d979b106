import { makeStore } from './index';
import { updateGameList } from './slices/game';
import { displayModal, hideModal } from './slices/modal';
import { updateToastStack, withToast, withoutToast } from './slices/toast';
import { loggedIn, setLoginErrorCode, updatePlayHistories } from './slices/user';
import { pushToast, removeToast } from './slices/toastThunks';
import type { User } from '@/lib/types/user';

const user: User = {
  name: 'a@example.com',
  photoUrl: '/images/avatar-placeholder.svg',
  uid: 'u1',
  email: 'a@example.com',
  emailVerified: true,
  paymentExpirationTime: null,
  signInMethods: ['password'],
  canTwitterLoggedIn: false,
  createdAt: 1700000000,
  isAnonymous: false,
};

describe('store', () => {
  it('uses exactly the spec action names', () => {
    expect([
      updateGameList.type,
      displayModal.type,
      hideModal.type,
      updateToastStack.type,
      loggedIn.type,
      updatePlayHistories.type,
      setLoginErrorCode.type,
    ]).toEqual([
      'GAME.UPDATE_GAME_LIST',
      'MODAL.DISPLAY',
      'MODAL.HIDE',
      'TOAST.STACK_UPDATE',
      'USER.LOGGED_IN',
      'USER.UPDATE_PLAY_HISTORIES',
      'USER.LOGIN_ERROR',
    ]);
  });

  it('starts with the spec state shape', () => {
    const s = makeStore().getState();
    expect(s.game).toEqual({ gameList: [] });
    expect(s.modal).toEqual({ node: null, props: {} });
    expect(s.toast).toEqual({ stack: [] });
    expect(s.user.user).toBeUndefined();
    expect(s.user.playHistories).toEqual([]);
    expect(s.user.loginErrorCode).toBeNull();
  });

  it('opens and closes the modal, resetting to an empty node', () => {
    const store = makeStore();
    store.dispatch(displayModal({ node: 'login', props: { message: 'x' } }));
    expect(store.getState().modal).toEqual({ node: 'login', props: { message: 'x' } });
    store.dispatch(hideModal());
    expect(store.getState().modal).toEqual({ node: null, props: {} });
  });

  it('adds and removes toasts through TOAST.STACK_UPDATE', () => {
    const store = makeStore();
    store.dispatch(pushToast('info', { message: 'こんにちは' }));
    store.dispatch(pushToast('error', { message: 'エラー' }));
    const stack = store.getState().toast.stack;
    expect(stack.map((t) => t.props.message)).toEqual(['こんにちは', 'エラー']);
    expect(new Set(stack.map((t) => t.key)).size).toBe(2);
    store.dispatch(removeToast(stack[0].key));
    expect(store.getState().toast.stack.map((t) => t.node)).toEqual(['error']);
    expect(withoutToast(withToast([], { node: 'info', key: 'k', props: { message: 'm' } }), 'k')).toEqual([]);
  });

  it('records the user, histories and login error', () => {
    const store = makeStore();
    store.dispatch(loggedIn(user));
    expect(store.getState().user.user).toEqual(user);
    expect(store.getState().user.authReady).toBe(true);
    const game = { id: 'g', title: 'G', reading: 'じー', brandId: 'b', brand: 'B', description: '', tags: [], genres: [], releaseDate: '2026-01-01', keyArt: '', ageRating: 'all' as const, plays: 0, premium: false };
    store.dispatch(updatePlayHistories([{ gameId: 'g', title: 'G', lastPlayedAt: 1, totalSeconds: 2, playCount: 1, game }]));
    expect(store.getState().user.playHistories).toHaveLength(1);
    store.dispatch(setLoginErrorCode('auth/wrong-password'));
    expect(store.getState().user.loginErrorCode).toBe('auth/wrong-password');
    store.dispatch(loggedIn(null));
    expect(store.getState().user.playHistories).toEqual([]);
  });

  it('replaces the game list', () => {
    const store = makeStore();
    store.dispatch(updateGameList([{ id: 'a', title: 'A', reading: 'えー', brandId: 'b', brand: 'B', description: '', tags: [], genres: [], releaseDate: '2026-01-01', keyArt: '', ageRating: 'all', plays: 0, premium: false }]));
    expect(store.getState().game.gameList.map((g) => g.id)).toEqual(['a']);
  });
});
