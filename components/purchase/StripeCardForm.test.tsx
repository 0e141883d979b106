/**
 * The purchase pages with the `stripe` processor's mounts, `@stripe/stripe-js` and the api as
 * doubles: the Payment Element is mounted with the api's publishable key and client secret in
 * Japanese; a saved card moves the flow on to the final confirmation; a card error shows Stripe's
 * message and keeps the form; a Stripe.js that cannot load shows a Japanese error and a retry;
 * 3-D Secure runs handleNextAction and then the api's confirm; "change card" saves the new setup.
 * The sandbox path never loads Stripe.js.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { advance, settle, withFakeTimers } from '@/test/fakeTimers';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ApiClientError } from '@/lib/api/client';
import type { CardSetup, PurchaseResult } from '@/lib/api/purchase';
import * as purchaseApi from '@/lib/api/purchase';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import { CARD_SETUP_FAILED_MESSAGE } from '@/lib/purchase/format';
import { STRIPE_READY_TIMEOUT_MS } from '@/lib/purchase/stripe';
import { CardPurchase } from './CardPurchase';
import { ChangeCard } from './ChangeCard';
import { active, cardSetup, plan, subscription } from './testing/fixtures';

jest.mock('@/lib/api/purchase');
const api = jest.mocked(purchaseApi);
const refreshPaymentClaim = jest.fn(async () => 1_900_000_000);
jest.mock('@/lib/purchase/refreshClaim', () => ({ refreshPaymentClaim: () => refreshPaymentClaim() }));
const loadStripe = jest.fn();
jest.mock('@stripe/stripe-js', () => ({ loadStripe: (...a: unknown[]) => loadStripe(...a) }));

const verified = { preloadedState: userState(testUser()) };
const PK = 'pk_test_yumecast';

let setups = 0;
function stripeSetup(): CardSetup {
  setups += 1;
  return { setupId: `seti_s${setups}`, mount: { kind: 'stripe_payment_element', publishableKey: PK, clientSecret: `seti_s${setups}_secret_abc` } };
}

const stripeAction = (): PurchaseResult => ({
  result: 'requires_action',
  subscription: subscription({ status: 'incomplete', entitled: false, accessUntil: null }),
  action: { kind: 'stripe_confirm_payment', publishableKey: PK, clientSecret: 'pi_3ds_secret_xyz' },
});

/** A Stripe.js double: one Payment Element whose events the test fires. */
function fakeStripe() {
  const handlers: Record<string, (event?: unknown) => void> = {};
  interface FakeElement {
    on: jest.Mock;
    mount: jest.Mock;
    destroy: jest.Mock;
  }
  const element: FakeElement = {
    on: jest.fn((event: string, handler: (e?: unknown) => void) => {
      handlers[event] = handler;
      return element;
    }),
    mount: jest.fn(),
    destroy: jest.fn(),
  };
  const elements = { create: jest.fn(() => element), update: jest.fn(async () => undefined) };
  const stripe = { elements: jest.fn(() => elements), confirmSetup: jest.fn(), handleNextAction: jest.fn() };
  const emit = (event: string, payload?: unknown) => act(() => handlers[event]?.(payload));
  return { stripe, elements, element, emit };
}

let fake: ReturnType<typeof fakeStripe>;

beforeEach(() => {
  jest.resetAllMocks();
  setups = 0;
  fake = fakeStripe();
  loadStripe.mockResolvedValue(fake.stripe);
  api.fetchPlans.mockResolvedValue([plan()]);
  api.fetchCurrentSubscription.mockResolvedValue(null);
  api.createCardSetup.mockImplementation(async () => stripeSetup());
  api.fetchPremiumTitles.mockResolvedValue([]);
  refreshPaymentClaim.mockImplementation(async () => 1_900_000_000);
});

/** Waits for the success page and the token refresh behind it. */
async function success() {
  const page = await screen.findByTestId('purchase-success');
  await waitFor(() => expect(screen.queryByTestId('claim-refreshing')).toBeNull());
  return page;
}

/** Waits for the Payment Element to be mounted, then says it is ready. */
async function readyForm() {
  await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
  fake.emit('ready', { elementType: 'payment' });
  await waitFor(() => expect(screen.getByTestId('stripe-card-submit')).toBeEnabled());
}

describe('the card form with Stripe', () => {
  it('mounts the Payment Element with the api key and client secret in Japanese, then a saved card goes on to the review', async () => {
    fake.stripe.confirmSetup.mockResolvedValue({ setupIntent: { id: 'seti_s1', status: 'succeeded', payment_method: 'pm_123' } });
    api.subscribe.mockResolvedValue(active());
    renderWithProviders(<CardPurchase planId="standard" />, verified);

    expect(await screen.findByTestId('stripe-card-form')).toHaveAttribute('data-state', 'loading');
    expect(screen.getAllByText('カード入力フォームを読み込んでいます…').length).toBeGreaterThan(0);
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalledWith(screen.getByTestId('stripe-payment-element')));
    expect(loadStripe).toHaveBeenCalledWith(PK, { locale: 'ja' });
    expect(fake.stripe.elements).toHaveBeenCalledWith({ clientSecret: 'seti_s1_secret_abc', locale: 'ja', appearance: expect.objectContaining({ theme: 'night' }) });
    expect(fake.elements.create).toHaveBeenCalledWith('payment', expect.anything());
    expect(screen.getByTestId('stripe-card-submit')).toBeDisabled();

    fake.emit('ready', { elementType: 'payment' });
    const submit = await screen.findByTestId('stripe-card-submit');
    await waitFor(() => expect(submit).toBeEnabled());
    fireEvent.click(submit);
    fireEvent.click(submit);

    expect(await screen.findByTestId('pay-review')).toBeInTheDocument();
    expect(fake.stripe.confirmSetup).toHaveBeenCalledTimes(1);
    expect(fake.stripe.confirmSetup).toHaveBeenCalledWith({ elements: fake.elements, redirect: 'if_required' });
    // Stripe.js gave only the payment method's id: the review does not invent a brand.
    expect(screen.getByTestId('review-card')).toHaveTextContent('登録したクレジットカード');
    expect(fake.element.destroy).toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('pay-button'));
    await success();
    expect(api.subscribe).toHaveBeenCalledWith({ planId: 'standard', setupId: 'seti_s1', idempotencyKey: expect.any(String) });
  });

  it('shows the card from an expanded payment method', async () => {
    fake.stripe.confirmSetup.mockResolvedValue({
      setupIntent: { id: 'seti_s1', status: 'succeeded', payment_method: { id: 'pm_1', card: { brand: 'jcb', last4: '0505', exp_month: 3, exp_year: 2031 } } },
    });
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await readyForm();
    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    expect(await screen.findByTestId('review-card')).toHaveTextContent('JCB •••• 0505');
  });

  it("a card error shows Stripe's message and keeps the form; other errors get ours", async () => {
    fake.stripe.confirmSetup
      .mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'カードが拒否されました。' } })
      .mockResolvedValueOnce({ error: { type: 'api_connection_error', message: 'Network error' } });
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await readyForm();

    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('カードが拒否されました。');
    expect(screen.getByTestId('stripe-card-form')).toHaveAttribute('data-state', 'ready');
    await waitFor(() => expect(screen.getByTestId('stripe-card-submit')).toBeEnabled());
    expect(fake.element.destroy).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    await waitFor(() => expect(screen.getByTestId('purchase-error')).toHaveTextContent(CARD_SETUP_FAILED_MESSAGE));
    expect(screen.queryByText('Network error')).toBeNull();
    expect(screen.queryByTestId('pay-review')).toBeNull();
    expect(api.subscribe).not.toHaveBeenCalled();
  });

  it('a Stripe.js that cannot load shows a Japanese error and loads again on retry', async () => {
    loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    expect(await screen.findByTestId('stripe-load-error')).toHaveTextContent('カード入力フォームを読み込めませんでした');
    expect(screen.queryByTestId('stripe-card-submit')).toBeNull();

    fireEvent.click(screen.getByTestId('stripe-retry'));
    await readyForm();
    expect(loadStripe).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('stripe-load-error')).toBeNull();
  });

  it('a Payment Element that fails to load (loaderror) shows the Japanese error', async () => {
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    fake.emit('loaderror', { elementType: 'payment', error: { type: 'invalid_request_error', message: 'No such setupintent' } });
    expect(await screen.findByTestId('stripe-load-error')).toHaveTextContent('もう一度お試しください');
    expect(screen.queryByText('No such setupintent')).toBeNull();
  });

  it('a form that never gets ready offers to load it again', () =>
    withFakeTimers(async () => {
      renderWithProviders(<CardPurchase planId="standard" />, verified);
      await settle(5);
      expect(screen.getByTestId('stripe-card-form')).toBeInTheDocument();
      advance(STRIPE_READY_TIMEOUT_MS);
      expect(screen.getByTestId('stripe-slow')).toHaveTextContent('時間がかかっています');
    }));

  it('the sandbox card form never loads Stripe.js', async () => {
    api.createCardSetup.mockImplementation(async () => cardSetup());
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await screen.findByTestId('card-frame');
    expect(loadStripe).not.toHaveBeenCalled();
  });
});

describe('3-D Secure with Stripe', () => {
  async function toChallenge() {
    fake.stripe.confirmSetup.mockResolvedValue({ setupIntent: { id: 'seti_s1', status: 'succeeded', payment_method: 'pm_1' } });
    api.subscribe.mockResolvedValueOnce(stripeAction());
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await readyForm();
    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    fireEvent.click(await screen.findByTestId('pay-button'));
    return screen.findByTestId('challenge-step');
  }

  it('runs handleNextAction once with the PaymentIntent secret, then confirms at the api', async () => {
    let finish: (v: unknown) => void = () => undefined;
    fake.stripe.handleNextAction.mockImplementation(() => new Promise((r) => (finish = r)));
    api.confirmPurchase.mockResolvedValueOnce(active());
    expect(await toChallenge()).toHaveTextContent('本人認証（3-Dセキュア）が必要です');
    await waitFor(() => expect(fake.stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_3ds_secret_xyz' }));
    expect(screen.getByTestId('stripe-challenge')).toHaveAttribute('data-state', 'authenticating');
    expect(api.confirmPurchase).not.toHaveBeenCalled();

    await act(async () => finish({ paymentIntent: { id: 'pi_3ds', status: 'succeeded' } }));
    expect(await success()).toBeInTheDocument();
    expect(api.confirmPurchase).toHaveBeenCalledWith(subscription().id);
    expect(fake.stripe.handleNextAction).toHaveBeenCalledTimes(1);
  });

  it('a failed check: the Japanese message and a new card setup', async () => {
    let finish: (v: unknown) => void = () => undefined;
    fake.stripe.handleNextAction.mockImplementation(() => new Promise((r) => (finish = r)));
    api.confirmPurchase.mockRejectedValueOnce(new ApiClientError('payment_failed', 402, '本人認証に失敗したため、お支払いできませんでした。'));
    await toChallenge();
    await waitFor(() => expect(fake.stripe.handleNextAction).toHaveBeenCalled());
    await act(async () => finish({ error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'auth failed' } }));

    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('本人認証に失敗したため、お支払いできませんでした。');
    expect(api.confirmPurchase).toHaveBeenCalledTimes(1);
    expect(await screen.findByTestId('stripe-card-form')).toBeInTheDocument();
    expect(api.createCardSetup).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('purchase-success')).toBeNull();
  });

  it('a Stripe.js that cannot load: a Japanese error and a retry, nothing confirmed', async () => {
    fake.stripe.handleNextAction.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    api.confirmPurchase.mockResolvedValueOnce(active());
    // The card form's load succeeds, the challenge's first one fails.
    loadStripe.mockResolvedValueOnce(fake.stripe).mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    await toChallenge();
    expect(await screen.findByTestId('stripe-challenge-error')).toHaveTextContent('本人認証（3-Dセキュア）の画面を読み込めませんでした');
    expect(api.confirmPurchase).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('stripe-challenge-retry'));
    expect(await success()).toBeInTheDocument();
    expect(fake.stripe.handleNextAction).toHaveBeenCalledTimes(1);
  });
});

describe('change card with Stripe', () => {
  it('saves the new setup with the api after Stripe saved the card', async () => {
    fake.stripe.confirmSetup.mockResolvedValue({ setupIntent: { id: 'seti_s1', status: 'succeeded', payment_method: 'pm_9' } });
    // one subscription (its times from one clock reading: two calls may fall on either side of a second)
    const changed = subscription();
    api.changeCard.mockResolvedValue(changed);
    const onChanged = jest.fn();
    renderWithProviders(<ChangeCard onChanged={onChanged} />, verified);
    fireEvent.click(screen.getByTestId('change-card-open'));
    await readyForm();
    expect(screen.getByTestId('stripe-card-submit')).toHaveTextContent('このカードに変更する');
    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    expect(await screen.findByTestId('card-changed')).toBeInTheDocument();
    expect(api.changeCard).toHaveBeenCalledWith('seti_s1');
    expect(onChanged).toHaveBeenCalledWith(changed);
  });

  it("a refused card shows Stripe's message and keeps the form", async () => {
    fake.stripe.confirmSetup.mockResolvedValue({ error: { type: 'card_error', message: 'カードの有効期限が切れています。' } });
    renderWithProviders(<ChangeCard onChanged={jest.fn()} />, verified);
    fireEvent.click(screen.getByTestId('change-card-open'));
    await readyForm();
    fireEvent.click(screen.getByTestId('stripe-card-submit'));
    expect(await screen.findByTestId('change-card-error')).toHaveTextContent('カードの有効期限が切れています。');
    expect(screen.getByTestId('stripe-card-form')).toBeInTheDocument();
    expect(api.changeCard).not.toHaveBeenCalled();
  });
});
