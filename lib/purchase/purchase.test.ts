/**
 * The purchase helpers without a page: which postMessage counts (origin, source tag, shape), the
 * subscription state (a past date is never 有効), Japanese formatting, the billing e-mail
 * attempt's requestId, the plan in the address bar, the claim refresh, the emulator address.
 */
import { parseHostedMessage, originOf, HOSTED_SOURCE } from './hostedMessages';
import { purchaseStatus, canCancel, canResume } from './status';
import { brandLabel, cardLabel, formatYen, invoiceReasonLabel, periodLabel, priceLabel } from './format';
import { BillingEmailAttempt, billingEmailMessage, callableCode } from './billingEmail';
import { planIdFrom, withPlan } from './paths';
import { refreshPaymentClaim } from './refreshClaim';
import { functionsEmulatorHost, parseHostPort } from '@/lib/firebase/functions';
import type { Subscription } from '@/lib/api/purchase';
import { DAY, plan, subscription } from './testing/fixtures';

jest.mock('@/lib/firebase/client', () => ({ firebaseApp: jest.fn(), firebaseAuth: () => ({ currentUser: null }) }));

const ORIGIN = 'http://127.0.0.1:8300';
const NOW = Date.UTC(2026, 5, 1, 3, 0, 0);
const nowS = NOW / 1000;

const sub = (over: Partial<Subscription> = {}): Subscription => subscription({ id: 's1', plan: plan({ amountJpy: 980 }), card: null, ...over }, nowS);

describe('hosted page messages', () => {
  const msg = (data: object) => ({ source: HOSTED_SOURCE, ...data });

  it('takes only the hosted origin and the sandbox source tag', () => {
    expect(parseHostedMessage(ORIGIN, msg({ type: 'ready' }), ORIGIN)).toEqual({ type: 'ready' });
    expect(parseHostedMessage('https://evil.example', msg({ type: 'ready' }), ORIGIN)).toBeNull();
    expect(parseHostedMessage(ORIGIN, { type: 'ready' }, ORIGIN)).toBeNull();
    expect(parseHostedMessage(ORIGIN, msg({ type: 'ready' }), '')).toBeNull();
    expect(parseHostedMessage(ORIGIN, 'ready', ORIGIN)).toBeNull();
    expect(parseHostedMessage(ORIGIN, msg({ type: 'something_else' }), ORIGIN)).toBeNull();
  });

  it('reads the card form and challenge results as the sandbox sends them', () => {
    const card = { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
    expect(parseHostedMessage(ORIGIN, msg({ type: 'card_setup_succeeded', setupIntentId: 'seti_1', paymentMethod: card }), ORIGIN)).toEqual({
      type: 'card_setup_succeeded',
      setupIntentId: 'seti_1',
      paymentMethod: card,
    });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'card_setup_succeeded', setupIntentId: 'seti_1', paymentMethod: null }), ORIGIN)).toMatchObject({ paymentMethod: null });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'card_setup_failed', setupIntentId: 'seti_1', error: { code: 'card_declined', message: '拒否' } }), ORIGIN)).toEqual({
      type: 'card_setup_failed',
      setupIntentId: 'seti_1',
      error: { code: 'card_declined', message: '拒否' },
    });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'card_setup_failed', setupIntentId: 'seti_1' }), ORIGIN)).toBeNull();
    expect(parseHostedMessage(ORIGIN, msg({ type: 'authentication_finished', paymentIntentId: 'pi_1', status: 'succeeded', error: null }), ORIGIN)).toEqual({
      type: 'authentication_finished',
      paymentIntentId: 'pi_1',
      status: 'succeeded',
      error: null,
    });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'authentication_finished', paymentIntentId: 'pi_1', status: 'weird' }), ORIGIN)).toBeNull();
    expect(parseHostedMessage(ORIGIN, msg({ type: 'resize', height: 480.4 }), ORIGIN)).toEqual({ type: 'resize', height: 481 });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'resize', height: 99999 }), ORIGIN)).toEqual({ type: 'resize', height: 2000 });
    expect(parseHostedMessage(ORIGIN, msg({ type: 'resize', height: -1 }), ORIGIN)).toBeNull();
  });

  it('tells the origin of a URL', () => {
    expect(originOf('http://127.0.0.1:8300/hosted/card-form?x=1')).toBe(ORIGIN);
    expect(originOf('javascript:alert(1)')).toBe('');
    expect(originOf('not a url')).toBe('');
  });
});

describe('subscription state', () => {
  it('active: the renewal date; cancelled: the end date; past due is flagged', () => {
    const s = purchaseStatus(sub(), null, NOW);
    expect(s).toMatchObject({ kind: 'active', cancelScheduled: false, pastDue: false, endsOn: null });
    expect(s.renewsOn).toBe('2026年6月30日');
    expect(s.label).toBe('2026年6月30日 まで有効');
    expect(purchaseStatus(sub({ cancelAtPeriodEnd: true }), null, NOW)).toMatchObject({ kind: 'active', cancelScheduled: true, renewsOn: null, endsOn: '2026年6月30日' });
    expect(purchaseStatus(sub({ status: 'past_due' }), null, NOW).pastDue).toBe(true);
  });

  it('a date in the past is never 有効', () => {
    const s = purchaseStatus(sub({ currentPeriodEnd: nowS - DAY, accessUntil: nowS - DAY }), nowS + DAY, NOW);
    expect(s.kind).toBe('expired');
    expect(s.label).toBe('2026年5月31日 に期限切れ');
    expect(s.label).not.toMatch(/有効/);
  });

  it('a subscription that grants nothing has expired, whatever its dates', () => {
    expect(purchaseStatus(sub({ status: 'canceled', entitled: false, accessUntil: null, endedAt: nowS - 2 * DAY }), nowS + DAY, NOW)).toMatchObject({
      kind: 'expired',
      endsOn: '2026年5月30日',
    });
    // Never a date in the future for an ended one.
    expect(purchaseStatus(sub({ status: 'canceled', entitled: false, accessUntil: null }), null, NOW).endsOn).toBe('2026年6月1日');
  });

  it('without a record the claim speaks', () => {
    expect(purchaseStatus(null, null, NOW).kind).toBe('none');
    expect(purchaseStatus(null, nowS + DAY, NOW).kind).toBe('active');
    expect(purchaseStatus(null, nowS - DAY, NOW)).toMatchObject({ kind: 'expired', endsOn: '2026年5月31日' });
  });

  it('cancel and resume are offered only when they apply', () => {
    expect(canCancel(sub())).toBe(true);
    expect(canCancel(sub({ cancelAtPeriodEnd: true }))).toBe(false);
    expect(canCancel(sub({ status: 'canceled', entitled: false }))).toBe(false);
    expect(canCancel(null)).toBe(false);
    expect(canResume(sub({ cancelAtPeriodEnd: true }))).toBe(true);
    expect(canResume(sub())).toBe(false);
  });
});

describe('Japanese formatting', () => {
  it('writes prices, periods and cards', () => {
    expect(formatYen(12800)).toBe('12,800円');
    expect(priceLabel({ amountJpy: 980, interval: 'month', intervalCount: 1 })).toBe('月額 980円（税込）');
    expect(priceLabel({ amountJpy: 9800, interval: 'year', intervalCount: 1 })).toBe('年額 9,800円（税込）');
    expect(priceLabel({ amountJpy: 2700, interval: 'month', intervalCount: 3 })).toBe('3か月ごと 2,700円（税込）');
    expect(periodLabel({ interval: 'week', intervalCount: 1 })).toBe('1週間');
    expect(brandLabel('VISA')).toBe('VISA');
    expect(brandLabel('something')).toBe('カード');
    expect(cardLabel({ brand: 'jcb', last4: '0505', expMonth: 3, expYear: 2031 })).toBe('JCB •••• 0505（有効期限 03/31）');
    expect(invoiceReasonLabel('subscription_cycle')).toBe('自動更新');
    expect(invoiceReasonLabel(null)).toBe('お支払い');
  });
});

describe('billing e-mail attempt', () => {
  it('keeps one requestId for the attempt and shares a running call', async () => {
    let resolve: (v: { customerId: string; email: string }) => void = () => undefined;
    const invoke = jest.fn(() => new Promise<{ customerId: string; email: string }>((r) => (resolve = r)));
    const attempt = new BillingEmailAttempt(undefined, invoke);
    expect(attempt.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const a = attempt.run();
    const b = attempt.run();
    expect(invoke).toHaveBeenCalledTimes(1);
    resolve({ customerId: 'cus_1', email: 'a@example.com' });
    await expect(a).resolves.toEqual({ customerId: 'cus_1', email: 'a@example.com' });
    await b;
    invoke.mockImplementationOnce(() => Promise.resolve({ customerId: 'cus_1', email: 'a@example.com' }));
    await attempt.run();
    expect(invoke.mock.calls.map((c) => (c as unknown[])[0])).toEqual([attempt.requestId, attempt.requestId]);
    expect(new BillingEmailAttempt(undefined, invoke).requestId).not.toBe(attempt.requestId);
  });

  it('names every failure in Japanese', () => {
    expect(callableCode({ code: 'functions/permission-denied' })).toBe('permission-denied');
    expect(callableCode(new TypeError('fetch failed'))).toBe('network');
    expect(callableCode(null)).toBe('unknown');
    expect(billingEmailMessage('permission-denied')).toContain('メールアドレスの確認');
    expect(billingEmailMessage('whatever')).toContain('お支払い用メールアドレスを登録できませんでした');
  });
});

describe('plan in the address', () => {
  it('accepts plan ids only', () => {
    expect(planIdFrom('standard')).toBe('standard');
    expect(planIdFrom(['yearly', 'x'])).toBe('yearly');
    expect(planIdFrom('<script>')).toBeNull();
    expect(planIdFrom(undefined)).toBeNull();
    expect(withPlan('/purchase/register-card', 'standard')).toBe('/purchase/register-card?plan=standard');
    expect(withPlan('/purchase/register-card', null)).toBe('/purchase/register-card');
  });
});

describe('claim refresh after a purchase', () => {
  it('forces a new token until the claim is in the future', async () => {
    const claims = [undefined, nowS + 30 * DAY];
    const user = { getIdToken: jest.fn(async () => 't'), getIdTokenResult: jest.fn(async () => ({ claims: { paymentExpirationTime: claims.shift() } })) };
    await expect(refreshPaymentClaim({ user, delayMs: 0, nowMs: () => NOW })).resolves.toBe(nowS + 30 * DAY);
    expect(user.getIdToken).toHaveBeenCalledWith(true);
    expect(user.getIdToken).toHaveBeenCalledTimes(2);
  });

  it('gives up after its attempts, and without a user', async () => {
    const user = { getIdToken: jest.fn(async () => 't'), getIdTokenResult: jest.fn(async () => ({ claims: { paymentExpirationTime: nowS - DAY } })) };
    await expect(refreshPaymentClaim({ user, attempts: 3, delayMs: 0, nowMs: () => NOW })).resolves.toBeNull();
    expect(user.getIdToken).toHaveBeenCalledTimes(3);
    await expect(refreshPaymentClaim({ user: null })).resolves.toBeNull();
  });
});

describe('functions emulator address', () => {
  it('connects when set, with a local default, never in production builds', () => {
    expect(functionsEmulatorHost('127.0.0.1:6001', true)).toBe('127.0.0.1:6001');
    expect(functionsEmulatorHost(undefined, true)).toBe('127.0.0.1:5001');
    expect(functionsEmulatorHost(undefined, false)).toBe('');
    expect(functionsEmulatorHost('', true)).toBe('');
    expect(parseHostPort('127.0.0.1:5001')).toEqual({ host: '127.0.0.1', port: 5001 });
    expect(parseHostPort('[::1]:5001')).toEqual({ host: '::1', port: 5001 });
    expect(parseHostPort('localhost')).toBeNull();
    expect(parseHostPort('')).toBeNull();
  });
});
