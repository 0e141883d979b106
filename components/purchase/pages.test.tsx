/**
 * The purchase pages' other states: /upgrade renders the plans from data and sends each kind of
 * user on its way; the billing e-mail step (one requestId per attempt, reused on retry, one call
 * for a double click); the premium badge and upgrade prompt of the title and play pages.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import { BillingEmailAttempt, BillingEmailError } from '@/lib/purchase/billingEmail';
import { FailurePanel } from '@/components/play/FailurePanel';
import { TitleActions } from '@/components/title/TitleActions';
import { TitleFacts } from '@/components/title/TitleFacts';
import type { TitleDetail } from '@/lib/api/catalog';
import Upgrade from '@/pages/upgrade';
import { BillingEmailStep } from './BillingEmailStep';
import { plan } from './testing/fixtures';

jest.mock('next/router', () => ({ useRouter: () => ({ push: jest.fn(), replace: jest.fn(), asPath: '/', query: {}, isReady: true }) }));
jest.mock('@/lib/mylist/useBookmark', () => ({ useBookmark: () => ({ bookmarked: false, busy: false, toggle: jest.fn() }) }));

const titles = [{ id: 'hoshifuru-toshokan', title: '星降る図書館', keyArt: '/k.png', ageRating: 'all' as const }];

describe('/upgrade', () => {
  it('renders each plan from the api data (name, price, period) with the enforced benefits', () => {
    renderWithProviders(<Upgrade plans={[plan(), plan({ id: 'yearly', name: '年間プラン', amountJpy: 9800, interval: 'year' })]} premiumTitles={titles} error={null} />);
    const plans = screen.getAllByTestId('plan');
    expect(plans).toHaveLength(2);
    expect(plans[0]).toHaveTextContent('スタンダードプラン');
    expect(screen.getAllByTestId('plan-price').map((p) => p.textContent)).toEqual(['月額 1,234円（税込）', '年額 9,800円（税込）']);
    expect(screen.getAllByTestId('plan-benefits')[0]).toHaveTextContent('プレミアム作品');
    expect(screen.getAllByTestId('plan-premium-titles')[0]).toHaveTextContent('星降る図書館');
    expect(screen.getByTestId('purchase-legal-links')).toHaveTextContent('特定商取引法に基づく表記');
  });

  it('a visitor goes to sign-up by purchase; a verified user to the billing e-mail; a subscriber to settings', () => {
    const { unmount } = renderWithProviders(<Upgrade plans={[plan()]} premiumTitles={[]} error={null} />, {
      preloadedState: userState(testUser({ isAnonymous: true, email: 'anonymous@yumecast.invalid', emailVerified: false })),
    });
    expect(screen.getByTestId('plan-cta')).toHaveAttribute('href', '/signup/purchase?plan=standard');
    unmount();
    const again = renderWithProviders(<Upgrade plans={[plan()]} premiumTitles={[]} error={null} />, { preloadedState: userState(testUser()) });
    expect(screen.getByTestId('plan-cta')).toHaveAttribute('href', '/purchase/register-email?plan=standard');
    again.unmount();
    renderWithProviders(<Upgrade plans={[plan()]} premiumTitles={[]} error={null} />, {
      preloadedState: userState(testUser({ paymentExpirationTime: Math.floor(Date.now() / 1000) + 86_400 })),
    });
    expect(screen.getByTestId('upgrade-active')).toHaveTextContent('プレミアムプランをご利用中です');
    expect(screen.getByTestId('plan-cta')).toHaveAttribute('href', '/settings/purchase');
  });

  it('says in Japanese when the plans could not be read', () => {
    renderWithProviders(<Upgrade plans={null} premiumTitles={[]} error="通信に失敗しました。" />);
    expect(screen.getByText('プランを読み込めませんでした')).toBeInTheDocument();
    expect(screen.getByTestId('upgrade-error')).toHaveTextContent('通信に失敗しました。');
    expect(screen.queryByTestId('plan')).toBeNull();
  });
});

describe('billing e-mail step', () => {
  it('one call for a double click, progress while it runs, then on to the card', async () => {
    let resolve: (v: { customerId: string; email: string }) => void = () => undefined;
    const invoke = jest.fn(() => new Promise<{ customerId: string; email: string }>((r) => (resolve = r)));
    const onRegistered = jest.fn();
    renderWithProviders(<BillingEmailStep email="yume@example.com" onRegistered={onRegistered} attempt={new BillingEmailAttempt('0b0f7a52-5d1b-4c0e-8a9f-2b7c3d4e5f60', invoke)} />);
    expect(screen.getByTestId('purchase-email')).toHaveTextContent('yume@example.com');
    const button = screen.getByTestId('billing-email-submit');
    await act(async () => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    expect(invoke).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('billing-email-submit')).toBeDisabled();
    expect(screen.getByTestId('billing-email-submit')).toHaveTextContent('メールアドレスを登録しています…');
    await act(async () => resolve({ customerId: 'cus_1', email: 'yume@example.com' }));
    expect(onRegistered).toHaveBeenCalledTimes(1);
  });

  it('a failure shows its Japanese message; the retry reuses the same requestId', async () => {
    const invoke = jest
      .fn()
      .mockRejectedValueOnce(new BillingEmailError('unavailable', '現在お支払い用メールアドレスを登録できません。しばらくしてからもう一度お試しください。'))
      .mockResolvedValueOnce({ customerId: 'cus_1', email: 'yume@example.com' });
    const onRegistered = jest.fn();
    renderWithProviders(<BillingEmailStep email="yume@example.com" onRegistered={onRegistered} attempt={new BillingEmailAttempt('0b0f7a52-5d1b-4c0e-8a9f-2b7c3d4e5f60', invoke)} />);
    await act(async () => fireEvent.click(screen.getByTestId('billing-email-submit')));
    expect(screen.getByTestId('billing-email-error')).toHaveTextContent('現在お支払い用メールアドレスを登録できません。');
    expect(screen.getByTestId('billing-email-submit')).toHaveTextContent('もう一度試す');
    await act(async () => fireEvent.click(screen.getByTestId('billing-email-submit')));
    expect(invoke.mock.calls).toEqual([['0b0f7a52-5d1b-4c0e-8a9f-2b7c3d4e5f60'], ['0b0f7a52-5d1b-4c0e-8a9f-2b7c3d4e5f60']]);
    expect(onRegistered).toHaveBeenCalledTimes(1);
  });
});

const game = (premium: boolean): TitleDetail & { premium: boolean } => ({
  id: 'hoshifuru-toshokan',
  title: '星降る図書館',
  reading: 'ほしふるとしょかん',
  brandId: 'b1',
  brand: 'ブランド',
  description: '説明',
  tags: [],
  genres: [],
  releaseDate: '2024-01-01',
  keyArt: '/k.png',
  ageRating: 'all',
  plays: 0,
  brandReading: 'ぶらんど',
  screenshots: [],
  gameFolder: 'hoshifuru-toshokan',
  premium,
});

describe('premium titles on the title and play pages', () => {
  it('a premium title shows the プレミアム badge and, without an active plan, the upgrade prompt', () => {
    renderWithProviders(
      <>
        <TitleFacts game={game(true)} />
        <TitleActions game={game(true)} />
      </>,
      { preloadedState: userState(testUser()) },
    );
    expect(screen.getByTestId('premium-badge')).toHaveTextContent('プレミアム');
    expect(screen.getByTestId('upgrade-prompt')).toHaveTextContent('プレミアムプラン会員限定');
    expect(screen.getByTestId('upgrade-link')).toHaveAttribute('href', '/upgrade');
  });

  it('a subscriber sees the badge but no prompt; a free title has neither', () => {
    const paid = userState(testUser({ paymentExpirationTime: Math.floor(Date.now() / 1000) + 86_400 }));
    const { unmount } = renderWithProviders(<TitleActions game={game(true)} />, { preloadedState: paid });
    expect(screen.queryByTestId('upgrade-prompt')).toBeNull();
    unmount();
    renderWithProviders(
      <>
        <TitleFacts game={game(false)} />
        <TitleActions game={game(false)} />
      </>,
      { preloadedState: userState(testUser()) },
    );
    expect(screen.queryByTestId('premium-badge')).toBeNull();
    expect(screen.queryByTestId('upgrade-prompt')).toBeNull();
  });

  it('the play page answers subscription_required with the Japanese upgrade prompt, not a generic failure', () => {
    renderWithProviders(<FailurePanel failure="subscription_required" gameId="hoshifuru-toshokan" onRetry={jest.fn()} />);
    const panel = screen.getByTestId('play-failure');
    expect(panel).toHaveTextContent('プレミアムプラン会員限定のタイトルです');
    expect(panel).not.toHaveTextContent('エラーが発生しました');
    expect(screen.getByTestId('upgrade-link')).toHaveAttribute('href', '/upgrade');
    expect(screen.queryByTestId('play-retry')).toBeNull();
  });
});
