/**
 * The card step of the purchase (/purchase/register-card) with the api and the hosted pages as
 * doubles: the card form's postMessage (from its origin only), the final confirmation, one
 * subscribe for a double click, a refused card (its Japanese message, the card form again, no
 * success), 3-D Secure (the challenge, then confirm), a lost answer retried with the same key.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { advance, settle, withFakeTimers } from '@/test/fakeTimers';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ApiClientError } from '@/lib/api/client';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import { CardPurchase } from './CardPurchase';
import { READY_TIMEOUT_MS } from './HostedFrame';
import { active, cardSaved, cardSetup, plan, postFromFrame, requiresAction, subscription } from './testing/fixtures';
import * as purchaseApi from '@/lib/api/purchase';
import type { PurchaseResult } from '@/lib/api/purchase';

jest.mock('@/lib/api/purchase');
const api = jest.mocked(purchaseApi);
const refreshPaymentClaim = jest.fn(async () => 1_900_000_000);
jest.mock('@/lib/purchase/refreshClaim', () => ({ refreshPaymentClaim: () => refreshPaymentClaim() }));

const verified = { preloadedState: userState(testUser()) };

beforeEach(() => {
  jest.resetAllMocks();
  refreshPaymentClaim.mockClear();
  api.fetchPlans.mockResolvedValue([plan(), plan({ id: 'yearly', name: '年間プラン', amountJpy: 9800, interval: 'year' })]);
  api.fetchCurrentSubscription.mockResolvedValue(null);
  api.createCardSetup.mockImplementation(async () => cardSetup());
  api.fetchPremiumTitles.mockResolvedValue([{ id: 'hoshifuru-toshokan', title: '星降る図書館', keyArt: '/k.png', ageRating: 'all' }]);
});

async function toReview() {
  const frame = await screen.findByTestId('card-frame');
  const iframe = frame.querySelector('iframe')!;
  const setupId = new URL(iframe.src).searchParams.get('client_secret')!.replace(/_secret$/, '');
  postFromFrame('card-frame', { type: 'ready', setupIntentId: setupId });
  postFromFrame('card-frame', cardSaved(setupId));
  await screen.findByTestId('pay-review');
  return setupId;
}

describe('card step', () => {
  it('frames the card form from the processor origin and ignores messages from any other origin', async () => {
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    const frame = await screen.findByTestId('card-frame');
    const iframe = frame.querySelector('iframe')!;
    expect(iframe.src).toMatch(/^http:\/\/127\.0\.0\.1:8300\/hosted\/card-form\?client_secret=seti_\d+_secret$/);
    expect(iframe).toHaveAttribute('title', 'カード情報の入力フォーム');
    expect(frame).toHaveAttribute('data-ready', 'false');
    expect(screen.getAllByText('カード入力フォームを読み込んでいます…').length).toBeGreaterThan(0);
    const setupId = new URL(iframe.src).searchParams.get('client_secret')!.replace(/_secret$/, '');

    // Another origin (or no source tag) saying the card was saved changes nothing.
    postFromFrame('card-frame', cardSaved(setupId), 'https://evil.example');
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { origin: 'http://127.0.0.1:8300', data: { type: 'card_setup_succeeded', setupIntentId: setupId }, source: iframe.contentWindow }));
    });
    expect(screen.queryByTestId('pay-review')).toBeNull();

    postFromFrame('card-frame', { type: 'ready', setupIntentId: setupId });
    expect(frame).toHaveAttribute('data-ready', 'true');
    postFromFrame('card-frame', { type: 'resize', setupIntentId: setupId, height: 512 });
    expect(frame).toHaveStyle({ height: '512px' });
    postFromFrame('card-frame', cardSaved(setupId));
    expect(await screen.findByTestId('pay-review')).toBeInTheDocument();
    expect(screen.getByTestId('review-plan')).toHaveTextContent('スタンダードプラン');
    expect(screen.getByTestId('review-price')).toHaveTextContent('月額 1,234円（税込）');
    expect(screen.getByTestId('review-card')).toHaveTextContent('VISA •••• 4242');
  });

  it('uses the plan named in the address, from the api data', async () => {
    renderWithProviders(<CardPurchase planId="yearly" />, verified);
    expect(await screen.findByTestId('chosen-plan')).toHaveTextContent('年間プラン（年額 9,800円（税込））');
  });

  it('a double click on pay sends one subscribe; success says what the user has and refreshes the token', async () => {
    let resolve: (v: PurchaseResult) => void = () => undefined;
    api.subscribe.mockImplementation(() => new Promise((r) => (resolve = r)));
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    const setupId = await toReview();
    const pay = screen.getByTestId('pay-button');
    expect(pay).toHaveTextContent('1,234円（税込）を支払って登録する');
    fireEvent.click(pay);
    fireEvent.click(pay);
    fireEvent.click(screen.getByTestId('pay-button'));
    expect(api.subscribe).toHaveBeenCalledTimes(1);
    const body = api.subscribe.mock.calls[0][0];
    expect(body).toEqual({ planId: 'standard', setupId, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(screen.getByTestId('pay-button')).toBeDisabled();
    expect(screen.getByTestId('pay-button')).toHaveTextContent('お支払いを処理しています…');

    await act(async () => resolve(active()));
    expect(await screen.findByTestId('purchase-success')).toHaveTextContent('スタンダードプランに登録しました');
    expect(screen.getByTestId('success-until')).toHaveTextContent('までご利用いただけます');
    expect(refreshPaymentClaim).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('claim-refreshing')).toBeNull());
    expect(await screen.findByTestId('play-premium')).toHaveAttribute('href', '/play/hoshifuru-toshokan');
  });

  it('a declined card: the Japanese message, the card form again (a new setup), no subscription', async () => {
    api.subscribe.mockRejectedValueOnce(new ApiClientError('card_declined', 402, 'カードが拒否されました。別のカードをお試しください。'));
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await toReview();
    fireEvent.click(screen.getByTestId('pay-button'));
    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('カードが拒否されました。別のカードをお試しください。');
    expect(await screen.findByTestId('card-frame')).toBeInTheDocument();
    expect(api.createCardSetup).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('purchase-success')).toBeNull();

    // The next press (another card) gets a new idempotency key.
    api.subscribe.mockResolvedValueOnce(active());
    await toReview();
    fireEvent.click(screen.getByTestId('pay-button'));
    await screen.findByTestId('purchase-success');
    expect(api.subscribe.mock.calls[1][0].idempotencyKey).not.toBe(api.subscribe.mock.calls[0][0].idempotencyKey);
  });

  it('a card refused by the form itself shows its message and keeps the form', async () => {
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    const frame = await screen.findByTestId('card-frame');
    const setupId = new URL(frame.querySelector('iframe')!.src).searchParams.get('client_secret')!.replace(/_secret$/, '');
    postFromFrame('card-frame', { type: 'card_setup_failed', setupIntentId: setupId, error: { code: 'card_declined', message: 'このカードはご利用いただけません。' } });
    expect(screen.getByTestId('purchase-error')).toHaveTextContent('このカードはご利用いただけません。');
    expect(screen.getByTestId('card-frame')).toBeInTheDocument();
    expect(api.subscribe).not.toHaveBeenCalled();
  });

  it('3-D Secure: the challenge is shown, its result is confirmed, then success', async () => {
    api.subscribe.mockResolvedValueOnce(requiresAction());
    api.confirmPurchase.mockResolvedValueOnce(active());
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await toReview();
    fireEvent.click(screen.getByTestId('pay-button'));
    const challenge = await screen.findByTestId('challenge-frame');
    expect(screen.getByTestId('challenge-step')).toHaveTextContent('本人認証（3-Dセキュア）が必要です');
    expect(challenge.querySelector('iframe')).toHaveAttribute('src', 'http://127.0.0.1:8300/hosted/3ds?client_secret=pi_1_secret');
    postFromFrame('challenge-frame', { type: 'authentication_finished', paymentIntentId: 'pi_1', status: 'succeeded', error: null }, 'https://evil.example');
    expect(api.confirmPurchase).not.toHaveBeenCalled();
    postFromFrame('challenge-frame', { type: 'authentication_finished', paymentIntentId: 'pi_1', status: 'succeeded', error: null });
    expect(await screen.findByTestId('purchase-success')).toBeInTheDocument();
    expect(api.confirmPurchase).toHaveBeenCalledWith(subscription().id);
  });

  it('3-D Secure failed: the Japanese message and the card form again', async () => {
    api.subscribe.mockResolvedValueOnce(requiresAction());
    api.confirmPurchase.mockRejectedValueOnce(new ApiClientError('payment_failed', 402, '本人認証に失敗しました。'));
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await toReview();
    fireEvent.click(screen.getByTestId('pay-button'));
    await screen.findByTestId('challenge-frame');
    postFromFrame('challenge-frame', { type: 'authentication_finished', paymentIntentId: 'pi_1', status: 'requires_payment_method', error: { message: '認証できませんでした。' } });
    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('本人認証に失敗しました。');
    expect(await screen.findByTestId('card-frame')).toBeInTheDocument();
  });

  it('a lost answer keeps the key: the retry replays the same request', async () => {
    api.subscribe.mockRejectedValueOnce(new ApiClientError('timeout', 0, 'サーバーからの応答がありません。')).mockResolvedValueOnce(active());
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    await toReview();
    fireEvent.click(screen.getByTestId('pay-button'));
    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('サーバーからの応答がありません。');
    expect(screen.getByTestId('pay-review')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('pay-button'));
    await screen.findByTestId('purchase-success');
    expect(api.subscribe.mock.calls[1][0]).toEqual(api.subscribe.mock.calls[0][0]);
  });

  it('an active subscriber is told so instead of buying twice', async () => {
    api.fetchCurrentSubscription.mockResolvedValue(subscription());
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    expect(await screen.findByTestId('already-subscribed')).toHaveTextContent('すでにスタンダードプランをご利用中です');
    expect(api.createCardSetup).not.toHaveBeenCalled();
  });

  it('a failure to prepare shows its message and a retry', async () => {
    api.fetchPlans.mockRejectedValueOnce(new ApiClientError('network', 0, '通信に失敗しました。'));
    renderWithProviders(<CardPurchase planId="standard" />, verified);
    expect(await screen.findByTestId('purchase-error')).toHaveTextContent('通信に失敗しました。');
    fireEvent.click(screen.getByText('もう一度試す'));
    expect(await screen.findByTestId('card-frame')).toBeInTheDocument();
  });

  it('a card form that never answers gets a message and a reload', () =>
    withFakeTimers(async () => {
      renderWithProviders(<CardPurchase planId="standard" />, verified);
      await settle(2);
      expect(screen.getByTestId('card-frame')).toBeInTheDocument();
      advance(READY_TIMEOUT_MS);
      expect(screen.getByTestId('hosted-slow')).toHaveTextContent('フォームを読み込めませんでした');
    }));
});
