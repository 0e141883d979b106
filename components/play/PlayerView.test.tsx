/**
 * The play page starts a session only once there is a user: a visitor is signed in anonymously
 * just after the first auth report, and starting before that fails with no token.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { loggedIn, setLoginErrorCode } from '@/store/slices/user';
import type { User } from '@/lib/types/user';
import { PlayerView } from './PlayerView';

const runs: string[] = [];
const exits: string[] = [];
/** The host-message callback the page gave its controller last. */
let hostMessage: ((m: unknown) => void) | null = null;
const replace = jest.fn(async () => true);
jest.mock('next/router', () => ({ useRouter: () => ({ push: jest.fn(), replace, asPath: '/play/hajimari-no-eki' }) }));
jest.mock('@/lib/session/playController', () => ({
  PlayController: class {
    snapshot = null;
    constructor(
      readonly gameId: string,
      cb: { onHostMessage(m: unknown): void },
    ) {
      hostMessage = cb.onHostMessage;
    }
    async run() {
      runs.push(this.gameId);
    }
    async exit() {
      exits.push(this.gameId);
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
  exits.length = 0;
  replace.mockClear();
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

  it('offers a cancel while the game starts: it ends the session and puts the title page in the play page’s place', async () => {
    const { store } = renderWithProviders(<PlayerView gameId="hajimari-no-eki" title="はじまりの駅" />);
    act(() => {
      store.dispatch(loggedIn(visitor));
    });
    fireEvent.click(screen.getByRole('button', { name: 'キャンセル' }));
    expect(screen.getByTestId('start-cancel')).toBeDisabled();
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/title/hajimari-no-eki'));
    expect(exits).toEqual(['hajimari-no-eki']);
  });

  it('tells a visitor where a saved screenshot goes without pointing at マイリスト, which a visitor cannot open', () => {
    const { store } = renderWithProviders(<PlayerView gameId="hajimari-no-eki" title="はじまりの駅" />);
    act(() => {
      store.dispatch(loggedIn(visitor));
    });
    act(() => hostMessage?.({ v: 1, type: 'screenshot-saved', requestId: 'r', screenshotId: 's' }));
    const messages = () => store.getState().toast.stack.map((t) => t.props.message);
    expect(messages()).toEqual(['スクリーンショットを保存しました（会員登録するとマイリストで見られます）']);
    act(() => {
      store.dispatch(loggedIn({ ...visitor, isAnonymous: false, emailVerified: true, email: 'a@example.com' }));
    });
    act(() => hostMessage?.({ v: 1, type: 'screenshot-saved', requestId: 'r2', screenshotId: 's2' }));
    expect(messages()).toContain('スクリーンショットを保存しました（マイリスト）');
  });
});
