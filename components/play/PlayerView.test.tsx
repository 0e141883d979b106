/**
 * The play page starts a session only once there is a user: a visitor is signed in anonymously
 * just after the first auth report, and starting before that fails with no token.
 */
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { loggedIn, setLoginErrorCode } from '@/store/slices/user';
import type { User } from '@/lib/types/user';
import { PlayerView } from './PlayerView';

const runs: string[] = [];
jest.mock('next/router', () => ({ useRouter: () => ({ push: jest.fn(), asPath: '/play/hajimari-no-eki' }) }));
jest.mock('@/lib/session/playController', () => ({
  PlayController: class {
    snapshot = null;
    constructor(readonly gameId: string) {}
    async run() {
      runs.push(this.gameId);
    }
    sendBeacon() {}
    dispose() {}
    setHidden() {}
  },
}));

const visitor: User = {
  name: 'ゲスト',
  photoUrl: '/images/avatar-placeholder.svg',
  uid: 'anon-1',
  email: 'anonymous@yumecast.invalid',
  emailVerified: false,
  paymentExpirationTime: null,
  signInMethods: [],
  canTwitterLoggedIn: false,
  createdAt: 1700000000,
  isAnonymous: true,
};

beforeEach(() => {
  runs.length = 0;
});

describe('PlayerView', () => {
  it('waits for the visitor’s anonymous sign-in before starting the session', () => {
    const { store } = renderWithProviders(<PlayerView gameId="hajimari-no-eki" title="はじまりの駅" />);
    act(() => {
      store.dispatch(loggedIn(null));
    });
    expect(runs).toEqual([]);
    expect(screen.getByTestId('play-stage')).toHaveAttribute('data-step', 'start');
    act(() => {
      store.dispatch(loggedIn(visitor));
    });
    expect(runs).toEqual(['hajimari-no-eki']);
  });

  it('shows a Japanese failure with a retry when the visitor cannot be signed in', () => {
    const { store } = renderWithProviders(<PlayerView gameId="hajimari-no-eki" title="はじまりの駅" />);
    act(() => {
      store.dispatch(loggedIn(null));
      store.dispatch(setLoginErrorCode('auth/network-request-failed'));
    });
    expect(runs).toEqual([]);
    expect(screen.getByText('通信が切断されました')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /もう一度/ })).toBeInTheDocument();
  });
});
