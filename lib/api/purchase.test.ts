/** @jest-environment node */
/**
 * The purchase client against a fetch double: the spec's GET /api/subscriptions with the bearer,
 * sorted newest created first; plans without a bearer; subscribe/confirm bodies and answers;
 * a refused card as a typed error with the server's Japanese message; malformed answers.
 */
import { installFetchDouble } from '@/test/fetchDouble';
import { ApiClientError } from './client';
import {
  cancelSubscription,
  changeCard,
  confirmPurchase,
  createCardSetup,
  fetchCurrentSubscription,
  fetchPlans,
  fetchPremiumTitles,
  fetchPurchaseSummary,
  fetchSubscriptions,
  resumeSubscription,
  subscribe,
} from './purchase';

jest.mock('@/lib/firebase/client', () => ({
  firebaseAuth: () => ({ currentUser: { getIdToken: jest.fn(async () => 'token') } }),
}));

const { fetchMock, answer, call, bearer } = installFetchDouble();

const planWire = { id: 'standard', name: 'スタンダードプラン', amount_jpy: 980, tax_included: true, interval: 'month', interval_count: 1 };
const subWire = (id: string, created: number, over: object = {}) => ({
  id,
  status: 'active',
  plan: planWire,
  created,
  current_period_start: created,
  current_period_end: created + 2_592_000,
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  entitled: true,
  access_until: created + 2_592_000,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
  ...over,
});

describe('purchase api', () => {
  it('GET /api/subscriptions with the bearer, newest created first; the first is the one used', async () => {
    fetchMock.mockImplementation(() => answer(200, { status: 'ok', subscriptions: [subWire('a', 100), subWire('c', 300), subWire('b', 200)] }));
    const list = await fetchSubscriptions();
    expect(call().url).toMatch(/\/api\/subscriptions$/);
    expect(bearer()).toBe('Bearer token');
    expect(list.map((s) => s.id)).toEqual(['c', 'b', 'a']);
    expect(list[0]).toMatchObject({ currentPeriodEnd: 300 + 2_592_000, cancelAtPeriodEnd: false, card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } });
    await expect(fetchCurrentSubscription()).resolves.toMatchObject({ id: 'c' });
  });

  it('plans and premium titles are public (no bearer)', async () => {
    fetchMock
      .mockReturnValueOnce(answer(200, { status: 'ok', plans: [planWire] }))
      .mockReturnValueOnce(
        answer(200, {
          status: 'ok',
          titles: [
            { id: 'a', title: 'A', premium: true, key_art: '/a.png', age_rating: 'all', tags: [], genres: [] },
            { id: 'b', title: 'B', premium: false, key_art: '/b.png', age_rating: 'all', tags: [], genres: [] },
          ],
          next_cursor: null,
        }),
      );
    await expect(fetchPlans()).resolves.toEqual([{ id: 'standard', name: 'スタンダードプラン', amountJpy: 980, interval: 'month', intervalCount: 1 }]);
    expect(call(0).url).toMatch(/\/v1\/plans$/);
    expect(bearer(0)).toBeNull();
    await expect(fetchPremiumTitles()).resolves.toEqual([{ id: 'a', title: 'A', keyArt: '/a.png', ageRating: 'all' }]);
    expect(bearer(1)).toBeNull();
  });

  it('card setup, subscribe and confirm: ids and the key go out, the answer comes back mapped', async () => {
    fetchMock
      .mockReturnValueOnce(answer(200, { status: 'ok', setup_id: 'seti_1', mount: { kind: 'sandbox_iframe', url: 'http://127.0.0.1:8300/hosted/card-form?client_secret=x', origin: 'http://127.0.0.1:8300' } }))
      .mockReturnValueOnce(
        answer(200, {
          status: 'ok',
          result: 'requires_action',
          subscription: subWire('s1', 100, { status: 'incomplete', entitled: false, access_until: null }),
          action: { kind: 'sandbox_challenge', url: 'http://127.0.0.1:8300/hosted/3ds?client_secret=y', origin: 'http://127.0.0.1:8300', payment_id: 'pi_1' },
        }),
      )
      .mockReturnValueOnce(answer(200, { status: 'ok', result: 'active', subscription: subWire('s1', 100), action: null }));
    await expect(createCardSetup()).resolves.toEqual({ setupId: 'seti_1', mount: { kind: 'sandbox_iframe', url: 'http://127.0.0.1:8300/hosted/card-form?client_secret=x', origin: 'http://127.0.0.1:8300' } });
    expect(call(0).init.method).toBe('POST');
    const key = '0b0f7a52-5d1b-4c0e-8a9f-2b7c3d4e5f60';
    const r = await subscribe({ planId: 'standard', setupId: 'seti_1', idempotencyKey: key });
    expect(JSON.parse(String(call(1).init.body))).toEqual({ planId: 'standard', setupId: 'seti_1', idempotencyKey: key });
    expect(r.result).toBe('requires_action');
    expect(r.action).toEqual({ kind: 'sandbox_challenge', url: 'http://127.0.0.1:8300/hosted/3ds?client_secret=y', origin: 'http://127.0.0.1:8300', paymentId: 'pi_1' });
    const c = await confirmPurchase('s1');
    expect(call(2).url).toMatch(/\/v1\/purchase\/confirm$/);
    expect(JSON.parse(String(call(2).init.body))).toEqual({ subscriptionId: 's1' });
    expect(c).toMatchObject({ result: 'active', subscription: { id: 's1', entitled: true } });
  });

  it('a refused card is a typed error carrying the server’s Japanese message', async () => {
    fetchMock.mockReturnValueOnce(answer(402, { status: 'error', error: { code: 'card_declined', message: 'カードが拒否されました。' } }));
    const e = await subscribe({ planId: 'standard', setupId: 'seti_1', idempotencyKey: 'k' }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e).toMatchObject({ code: 'card_declined', httpStatus: 402, userMessage: 'カードが拒否されました。' });
  });

  it('cancel, resume, change card and the summary', async () => {
    fetchMock
      .mockReturnValueOnce(answer(200, { status: 'ok', subscription: subWire('s1', 100, { cancel_at_period_end: true }) }))
      .mockReturnValueOnce(answer(200, { status: 'ok', subscription: subWire('s1', 100) }))
      .mockReturnValueOnce(answer(200, { status: 'ok', subscription: subWire('s1', 100) }))
      .mockReturnValueOnce(
        answer(200, {
          status: 'ok',
          entitled: true,
          access_until: 2000,
          subscription: subWire('s1', 100),
          card: null,
          invoices: [{ id: 'in_1', status: 'paid', amount_due_jpy: 980, amount_paid_jpy: 980, billing_reason: 'subscription_create', period_start: 1, period_end: 2, created: 1, paid_at: 1, failure_message: null }],
        }),
      );
    await expect(cancelSubscription()).resolves.toMatchObject({ cancelAtPeriodEnd: true });
    await expect(resumeSubscription()).resolves.toMatchObject({ cancelAtPeriodEnd: false });
    await changeCard('seti_2');
    expect(JSON.parse(String(call(2).init.body))).toEqual({ setupId: 'seti_2' });
    expect([0, 1, 2].map((i) => call(i).url.replace(/^.*(\/v1\/.*)$/, '$1'))).toEqual(['/v1/purchase/cancel', '/v1/purchase/resume', '/v1/purchase/card']);
    const s = await fetchPurchaseSummary();
    expect(s).toMatchObject({ entitled: true, accessUntil: 2000, card: null, invoices: [{ id: 'in_1', amountPaidJpy: 980, billingReason: 'subscription_create', paidAt: 1 }] });
  });

  it('a malformed answer is bad_response', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', subscriptions: [{ id: 'x' }] })).mockReturnValueOnce(answer(200, { status: 'ok', result: 'requires_action', subscription: subWire('s', 1), action: null }));
    await expect(fetchSubscriptions()).rejects.toMatchObject({ code: 'bad_response' });
    await expect(subscribe({ planId: 'p', setupId: 's', idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'bad_response' });
  });
});
