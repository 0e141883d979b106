/**
 * The sandbox's hosted card form and 3-D Secure page, over HTTP as a browser would use them:
 * the form's markup (autocomplete names, Japanese labels, framing limited to our web origin),
 * tokenisation of Stripe's test cards (4242 saved; 0002 declined; bad Luhn and past expiry
 * refused in Japanese; a card never stored), and 3155's subscription waiting for the challenge,
 * then active after "認証する" (or still incomplete after "認証に失敗する").
 */
import { answerChallenge, clientSecretOf, MONTHLY, purchase, startHarness, submitCard, waitFor, WEB_ORIGIN, type Harness } from './testing/harness';

jest.setTimeout(30_000);

describe('payments sandbox: hosted card form and 3-D Secure', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function newSetup(uid: string) {
    const customer = await h.client.ensureCustomer({ uid, email: `${uid}@example.com` });
    return { customer, setup: await h.client.createCardSetup({ customerId: customer.id, webOrigin: WEB_ORIGIN }) };
  }

  it('serves the card form from its own origin, framable only by our web origin', async () => {
    const { setup } = await newSetup('form-user');
    expect(setup.mount.kind).toBe('sandbox_iframe');
    if (setup.mount.kind !== 'sandbox_iframe') return;
    expect(setup.mount.origin).toBe(h.sandbox.url);
    expect(new URL(setup.mount.url).origin).toBe(h.sandbox.url);

    const response = await fetch(setup.mount.url);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${WEB_ORIGIN}`);
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    for (const name of ['cc-number', 'cc-exp', 'cc-csc', 'cc-name']) expect(html).toContain(`autocomplete="${name}"`);
    for (const label of ['カード番号', '有効期限', 'セキュリティコード', 'カード名義', 'カードを登録する']) expect(html).toContain(label);
    expect(html).toContain(`data-target-origin="${WEB_ORIGIN}"`);
    expect(html).not.toMatch(/<script>(?!<)/); // no inline script: the CSP allows only files

    const script = await fetch(`${h.sandbox.url}/hosted/assets/card-form.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('postMessage');
  });

  it('answers a Japanese "invalid link" page for a wrong client secret', async () => {
    const { setup } = await newSetup('form-user-2');
    const url = new URL(setup.mount.kind === 'sandbox_iframe' ? setup.mount.url : '');
    url.searchParams.set('client_secret', `${setup.id}_secret_${'x'.repeat(24)}`);
    const response = await fetch(url);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('このページは使用できません');
  });

  it('tokenises 4242 4242 4242 4242 into a card of brand, last 4 and expiry only', async () => {
    const { customer, setup } = await newSetup('visa-user');
    const result = await submitCard(setup, { number: '4242 4242 4242 4242', exp: [11, 2031] });
    expect(result.status).toBe(200);
    expect(result.body.payment_method?.card).toEqual({ brand: 'visa', last4: '4242', exp_month: 11, exp_year: 2031 });
    expect(JSON.stringify(result.body)).not.toContain('4242424242424242');

    const done = await h.client.getCardSetup(setup.id);
    expect(done.status).toBe('succeeded');
    const method = await h.client.getPaymentMethod(done.paymentMethodId!);
    expect(method).toMatchObject({ customerId: customer.id, brand: 'visa', last4: '4242', expMonth: 11, expYear: 2031 });
    expect(await h.client.listPaymentMethods(customer.id)).toHaveLength(1);

    // A finished setup cannot take a second card.
    const again = await submitCard(setup, { number: '5555555555554444' });
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe('setup_intent_unexpected_state');
  });

  it('declines 4000 0000 0000 0002 with card_declined and a Japanese message, saving nothing', async () => {
    const { customer, setup } = await newSetup('declined-user');
    const result = await submitCard(setup, { number: '4000000000000002' });
    expect(result.status).toBe(402);
    expect(result.body.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' });
    expect(result.body.error?.message).toMatch(/カードが承認されませんでした/);
    const after = await h.client.getCardSetup(setup.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.lastError?.code).toBe('card_declined');
    expect(await h.client.listPaymentMethods(customer.id)).toHaveLength(0);

    // The same form can take another card afterwards.
    expect((await submitCard(setup, { number: '4242424242424242' })).status).toBe(200);
  });

  it('refuses a number failing the Luhn check, a past expiry and a short CVC, in Japanese', async () => {
    const { setup } = await newSetup('typo-user');
    const luhn = await submitCard(setup, { number: '4242424242424241' });
    expect(luhn.status).toBe(402);
    expect(luhn.body.error).toMatchObject({ code: 'incorrect_number', message: expect.stringContaining('カード番号が正しくありません') });

    const past = await submitCard(setup, { number: '4242424242424242', exp: [1, 2020] });
    expect(past.status).toBe(402);
    expect(past.body.error).toMatchObject({ code: 'expired_card', message: expect.stringContaining('有効期限が切れています') });

    const cvc = await submitCard(setup, { number: '4242424242424242', cvc: '12' });
    expect(cvc.body.error?.code).toBe('invalid_cvc');

    const live = await submitCard(setup, { number: '4111111111111111' });
    expect(live.body.error).toMatchObject({ code: 'card_declined', decline_code: 'test_mode_live_card' });
  });

  it('4000 0025 0000 3155: the subscription waits for 3-D Secure, then the challenge makes it active', async () => {
    const start = await purchase(h, 'three-ds-user', '4000002500003155');
    expect(start.outcome).toBe('requires_action');
    expect(start.subscription.status).toBe('incomplete');
    expect(start.action?.kind).toBe('sandbox_challenge');
    if (start.action?.kind !== 'sandbox_challenge') return;
    expect(start.action.origin).toBe(h.sandbox.url);

    const page = await fetch(start.action.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${WEB_ORIGIN}`);
    const html = await page.text();
    for (const text of ['本人認証（3-Dセキュア）', '認証する', '認証に失敗する', '980円', 'VISA •••• 3155']) expect(html).toContain(text);

    const answer = await answerChallenge(start.action.url, 'complete');
    expect(answer.status).toBe(200);
    expect(answer.body.payment_intent?.status).toBe('succeeded');
    const sub = await h.client.getSubscription(start.subscription.id);
    expect(sub.status).toBe('active');
    expect(sub.pendingAction).toBeNull();
    const [invoice] = await h.client.listInvoices(sub.customerId);
    expect(invoice).toMatchObject({ status: 'paid', amountPaidJpy: MONTHLY.amountJpy, attemptCount: 1 });

    // The page cannot be answered twice.
    expect((await answerChallenge(start.action.url, 'complete')).status).toBe(400);
    await waitFor(() => h.receiver.accepted().some((e) => e.type === 'invoice.paid' && e.data.object.id === invoice.id), 5_000, 'invoice.paid');
  });

  it('a failed challenge leaves the subscription incomplete, then incomplete_expired after 23 hours', async () => {
    const start = await purchase(h, 'three-ds-fail', '4000002500003155');
    const url = start.action?.kind === 'sandbox_challenge' ? start.action.url : '';
    expect(clientSecretOf(url)).toMatch(/^pi_/);
    const answer = await answerChallenge(url, 'fail');
    expect(answer.body.payment_intent?.status).toBe('requires_payment_method');
    expect(answer.body.payment_intent?.last_payment_error?.message).toMatch(/本人認証/);
    expect((await h.client.getSubscription(start.subscription.id)).status).toBe('incomplete');

    await h.client.advanceClock(24 * 3600);
    const expired = await h.client.getSubscription(start.subscription.id);
    expect(expired.status).toBe('incomplete_expired');
    expect(expired.endedAt).not.toBeNull();
  });

  it('a declined first payment is reported as declined with the Japanese reason', async () => {
    // 4000 0000 0000 0341: saving works, charging does not.
    const start = await purchase(h, 'charge-declined', '4000000000000341');
    expect(start.outcome).toBe('declined');
    expect(start.subscription.status).toBe('incomplete');
    expect(start.failure).toMatchObject({ code: 'card_declined', message: expect.stringContaining('承認されませんでした') });
    const [invoice] = await h.client.listInvoices(start.subscription.customerId);
    expect(invoice).toMatchObject({ status: 'open', amountPaidJpy: 0 });
  });
});
