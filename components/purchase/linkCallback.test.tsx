/**
 * /purchase/link-callback when the link cannot be used: a verified user with a confirmed
 * address (the used link opened again) is told the address is registered and led on to the
 * flow's next step, or to /settings/purchase when subscribed; anyone else still gets the
 * failure and a way to send a new link.
 */
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import type { User } from '@/lib/types/user';
import PurchaseLinkCallback from '@/pages/purchase/link-callback';

const router = { isReady: true, query: {} as Record<string, string>, asPath: '/', pathname: '/purchase/link-callback', replace: jest.fn(), push: jest.fn() };
jest.mock('next/router', () => ({ __esModule: true, useRouter: () => router }));
jest.mock('next/head', () => ({ __esModule: true, default: () => null }));
const activateEmailLink = jest.fn();
jest.mock('@/lib/auth/emailLink', () => ({ activateEmailLink: (...a: unknown[]) => activateEmailLink(...a) }));

async function open(user: User | null, next = '/purchase/register-card?plan=standard') {
  router.query = { next, mode: 'signIn', oobCode: 'usedCode12345' };
  await act(async () => {
    renderWithProviders(<PurchaseLinkCallback />, { preloadedState: userState(user) });
  });
}

beforeEach(() => {
  activateEmailLink.mockReset();
  // The used link: its address was taken off this device when it was used.
  activateEmailLink.mockRejectedValue(new Error('No email link'));
});

describe('/purchase/link-callback, the used link opened again', () => {
  it('signed in with the registered address: says so, without asking for the same browser, and leads on to the next step', async () => {
    await open(testUser({ email: 'yume@example.com' }));
    expect(screen.getByTestId('link-registered')).toHaveTextContent('メールアドレス（yume@example.com）は登録済みで、ログインしています。');
    expect(screen.getByTestId('purchase-link-callback')).not.toHaveTextContent('同じ端末・ブラウザ');
    expect(screen.queryByTestId('link-error')).toBeNull();
    expect(screen.getByTestId('link-continue')).toHaveAttribute('href', '/purchase/register-card?plan=standard');
  });

  it('a subscriber is led to /settings/purchase', async () => {
    await open(testUser({ paymentExpirationTime: Math.floor(Date.now() / 1000) + 86_400 }));
    expect(screen.getByTestId('link-continue')).toHaveAttribute('href', '/settings/purchase');
  });

  it('another site in next= falls back to the card step', async () => {
    await open(testUser(), '//evil.example/');
    expect(screen.getByTestId('link-continue')).toHaveAttribute('href', '/purchase/register-card');
  });

  it('a visitor, or a user without a confirmed address, still gets the failure and a new link', async () => {
    await open(testUser({ isAnonymous: true, email: 'anonymous@yumecast.invalid', emailVerified: false, signInMethods: [] }));
    expect(screen.getByTestId('link-error')).toHaveTextContent('同じ端末・ブラウザ');
    expect(screen.queryByTestId('link-registered')).toBeNull();
    expect(screen.getByRole('link', { name: 'メールを送り直す' })).toHaveAttribute('href', '/signup/purchase');
  });

  it('a verified user whose address is not confirmed yet still gets the failure', async () => {
    await open(testUser({ emailVerified: false, signInMethods: [], canTwitterLoggedIn: true }));
    expect(screen.getByTestId('link-error')).toHaveTextContent('同じ端末・ブラウザ');
    expect(screen.getByRole('link', { name: 'メールを送り直す' })).toHaveAttribute('href', '/purchase/register-email');
  });
});
