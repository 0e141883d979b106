/**
 * /settings/purchase's content with the api as a double: the state from the newest of
 * GET /api/subscriptions (期限切れ for a past date, never 有効), renewal and end dates, the card,
 * cancel behind a confirmation and resume, change card through the hosted form, the history.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ApiClientError } from '@/lib/api/client';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import { PurchaseSettings } from './PurchaseSettings';
import { PaymentHistory } from './PaymentHistory';
import { cardSaved, cardSetup, DAY, postFromFrame, subscription, summary } from './testing/fixtures';
import * as purchaseApi from '@/lib/api/purchase';

jest.mock('@/lib/api/purchase');
const api = jest.mocked(purchaseApi);

const verified = { preloadedState: userState(testUser()) };
const now = () => Math.floor(Date.now() / 1000);

beforeEach(() => {
  jest.resetAllMocks();
  api.fetchPurchaseSummary.mockResolvedValue(summary());
  api.createCardSetup.mockImplementation(async () => cardSetup());
});

describe('settings: plan and payments', () => {
  it('an active plan: 有効, the next renewal, the card; cancel asks first, then resume', async () => {
    const sub = subscription();
    api.fetchSubscriptions.mockResolvedValue([sub]);
    api.cancelSubscription.mockResolvedValue({ ...sub, cancelAtPeriodEnd: true });
    api.resumeSubscription.mockResolvedValue({ ...sub, cancelAtPeriodEnd: false });
    renderWithProviders(<PurchaseSettings claim={sub.accessUntil} />, verified);
    const status = await screen.findByTestId('plan-status');
    expect(status).toHaveAttribute('data-kind', 'active');
    expect(status).toHaveTextContent('有効');
    expect(screen.getByTestId('settings-plan')).toHaveTextContent('スタンダードプラン（月額 1,234円（税込））');
    expect(screen.getByTestId('renews-on')).toHaveTextContent(/\d+年\d+月\d+日/);
    expect(screen.getByTestId('settings-card')).toHaveTextContent('VISA •••• 4242（有効期限 12/30）');

    fireEvent.click(screen.getByTestId('cancel-open'));
    expect(screen.getByTestId('cancel-dialog')).toHaveTextContent('プランを解約しますか？');
    fireEvent.click(screen.getByTestId('cancel-keep'));
    expect(api.cancelSubscription).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('cancel-open'));
    fireEvent.click(screen.getByTestId('cancel-confirm'));
    fireEvent.click(screen.getByTestId('cancel-confirm'));
    expect(await screen.findByTestId('resume')).toBeInTheDocument();
    expect(api.cancelSubscription).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('plan-status')).toHaveTextContent('解約済み（期間の終わりまで有効）');
    expect(screen.getByTestId('ends-on')).toBeInTheDocument();
    expect(screen.queryByTestId('renews-on')).toBeNull();
    expect(screen.queryByTestId('cancel-open')).toBeNull();

    fireEvent.click(screen.getByTestId('resume'));
    expect(await screen.findByTestId('cancel-open')).toBeInTheDocument();
    expect(api.resumeSubscription).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('renews-on')).toBeInTheDocument();
  });

  it('uses the newest subscription of the list the api gave (already sorted newest first)', async () => {
    api.fetchSubscriptions.mockResolvedValue([subscription(), subscription({ id: 'old', status: 'canceled', entitled: false, accessUntil: null, endedAt: now() - 90 * DAY })]);
    renderWithProviders(<PurchaseSettings claim={null} />, verified);
    expect(await screen.findByTestId('plan-status')).toHaveAttribute('data-kind', 'active');
  });

  it('a past date reads 期限切れ, never 有効, with the way back to the plans', async () => {
    const past = now() - 3 * DAY;
    api.fetchSubscriptions.mockResolvedValue([subscription({ currentPeriodEnd: past, accessUntil: past })]);
    renderWithProviders(<PurchaseSettings claim={past} />, verified);
    const status = await screen.findByTestId('plan-status');
    expect(status).toHaveAttribute('data-kind', 'expired');
    expect(status).toHaveTextContent('期限切れ');
    expect(status.textContent).not.toMatch(/有効/);
    expect(screen.getByText('プランを見る')).toHaveAttribute('href', '/upgrade');
    expect(screen.queryByTestId('cancel-open')).toBeNull();
    expect(screen.queryByTestId('change-card-open')).toBeNull();
  });

  it('an ended subscription is 期限切れ even when its paid period is still ahead', async () => {
    api.fetchSubscriptions.mockResolvedValue([subscription({ status: 'canceled', entitled: false, accessUntil: null, endedAt: now() - DAY })]);
    renderWithProviders(<PurchaseSettings claim={now() + DAY} />, verified);
    expect(await screen.findByTestId('plan-status')).toHaveTextContent('期限切れ');
  });

  it('without any subscription: no plan, a link to the plans', async () => {
    api.fetchSubscriptions.mockResolvedValue([]);
    api.fetchPurchaseSummary.mockResolvedValue(summary({ entitled: false, card: null }));
    renderWithProviders(<PurchaseSettings claim={null} />, verified);
    expect(await screen.findByText('ご契約中のプランはありません')).toBeInTheDocument();
    expect(screen.getByTestId('payment-history-empty')).toBeInTheDocument();
  });

  it('shows the payment history, newest first as given, with refusal reasons', async () => {
    api.fetchSubscriptions.mockResolvedValue([subscription()]);
    const t = now();
    api.fetchPurchaseSummary.mockResolvedValue(
      summary({
        invoices: [
          { id: 'in_2', status: 'open', amountDueJpy: 1234, amountPaidJpy: 0, billingReason: 'subscription_cycle', periodStart: t, periodEnd: t + 30 * DAY, created: t, paidAt: null, failureMessage: '残高不足です。' },
          { id: 'in_1', status: 'paid', amountDueJpy: 1234, amountPaidJpy: 1234, billingReason: 'subscription_create', periodStart: t - 30 * DAY, periodEnd: t, created: t - 30 * DAY, paidAt: t - 30 * DAY, failureMessage: null },
        ],
      }),
    );
    renderWithProviders(<PurchaseSettings claim={null} />, verified);
    const rows = await screen.findAllByTestId('payment-row');
    expect(rows[0]).toHaveTextContent('自動更新');
    expect(rows[0]).toHaveTextContent('未払い');
    expect(rows[0]).toHaveTextContent('残高不足です。');
    expect(rows[1]).toHaveTextContent('初回のお支払い');
    expect(rows[1]).toHaveTextContent('1,234円');
    expect(rows[1]).toHaveTextContent('支払い済み');
  });

  it('keeps each status on one line in a squeezed table (a phone: not "支払い済み" a character a line)', () => {
    const t = now();
    const base = { amountDueJpy: 1234, billingReason: 'subscription_cycle', periodStart: t, periodEnd: t + 30 * DAY, created: t } as const;
    renderWithProviders(
      <PaymentHistory
        invoices={[
          { ...base, id: 'in_2', status: 'open', amountPaidJpy: 0, paidAt: null, failureMessage: '残高不足です。' },
          { ...base, id: 'in_1', status: 'paid', amountPaidJpy: 1234, paidAt: t, failureMessage: null },
        ]}
      />,
    );
    for (const label of ['支払い済み', '未払い']) expect(getComputedStyle(screen.getByText(label)).whiteSpace).toBe('nowrap');
    // The refusal reason below it may wrap, but not to a sliver.
    expect(getComputedStyle(screen.getByText('残高不足です。')).whiteSpace).not.toBe('nowrap');
  });

  it('change card: a new setup in the hosted form, then the card is made the renewal card', async () => {
    const sub = subscription();
    api.fetchSubscriptions.mockResolvedValue([sub]);
    api.changeCard.mockResolvedValue({ ...sub, card: { brand: 'jcb', last4: '0505', expMonth: 1, expYear: 2031 } });
    renderWithProviders(<PurchaseSettings claim={null} />, verified);
    fireEvent.click(await screen.findByTestId('change-card-open'));
    const frame = await screen.findByTestId('change-card-frame');
    const setupId = new URL(frame.querySelector('iframe')!.src).searchParams.get('client_secret')!.replace(/_secret$/, '');
    postFromFrame('change-card-frame', cardSaved(setupId));
    expect(await screen.findByTestId('card-changed')).toBeInTheDocument();
    expect(api.changeCard).toHaveBeenCalledWith(setupId);
    expect(screen.getByTestId('settings-card')).toHaveTextContent('JCB •••• 0505');
  });

  it('a failed read says so in Japanese and can be retried', async () => {
    api.fetchSubscriptions.mockRejectedValueOnce(new ApiClientError('network', 0, '通信に失敗しました。')).mockResolvedValueOnce([subscription()]);
    renderWithProviders(<PurchaseSettings claim={null} />, verified);
    expect(await screen.findByTestId('settings-error')).toHaveTextContent('通信に失敗しました。');
    fireEvent.click(screen.getByText('再読み込み'));
    await waitFor(() => expect(screen.getByTestId('plan-status')).toHaveAttribute('data-kind', 'active'));
    expect(screen.queryByTestId('settings-error')).toBeNull();
  });
});
