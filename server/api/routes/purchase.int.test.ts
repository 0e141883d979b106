/**
 * Plans, purchase and /api/subscriptions against a real payments sandbox, PostgreSQL and the
 * Auth emulator: a 4242 card subscribes (once, even on a double click) and sets the claim; a
 * declined card is a typed error and no subscription; 3155 asks for 3-D Secure and is active
 * after it; cancel keeps the plan until the period end, which the sandbox's clock then passes;
 * another user's subscription is never visible; no card number reaches our tables.
 */
import { randomUUID } from 'node:crypto';
import {
  answerChallenge,
  CARD_3DS,
  CARD_DECLINED_AT_CHARGE,
  CARD_DECLINED_AT_SAVE,
  CARD_OK,
  DAY,
  passPeriodEnd,
  saveCard,
  startPaymentsStack,
  subscribeWith,
  type PaymentsStack,
} from '../services/payments/testing/stack';
import { waitFor } from '../testing/sessions';

jest.setTimeout(60_000);

let stack: PaymentsStack;

beforeAll(async () => {
  stack = await startPaymentsStack('purchase');
});

afterAll(async () => {
  await stack?.stop();
});

const list = async (token: string) => (await stack.call('GET', '/api/subscriptions', { token })).body;

describe('plans', () => {
  it('serves the plans from the database, without a bearer', async () => {
    const answer = await stack.call('GET', '/v1/plans');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'ok',
      plans: [{ id: 'standard', name: 'スタンダードプラン', amount_jpy: 980, tax_included: true, interval: 'month', interval_count: 1 }],
    });
  });

  it('marks each catalogue title premium or not', async () => {
    const answer = await stack.call('GET', '/v1/catalog/titles/hoshifuru-toshokan');
    expect(typeof answer.body.title.premium).toBe('boolean');
  });
});

describe('who may buy', () => {
  it('needs a bearer for everything but plans, and a verified user for purchases', async () => {
    expect((await stack.call('GET', '/api/subscriptions')).status).toBe(401);
    expect((await stack.call('POST', '/v1/purchase/card-setup')).status).toBe(401);
    const visitor = await stack.users.anonymous();
    expect((await list(visitor.idToken)).subscriptions).toEqual([]);
    for (const [method, url] of [['POST', '/v1/purchase/card-setup'], ['POST', '/v1/purchase/subscribe'], ['GET', '/v1/purchase/summary']]) {
      const answer = await stack.call(method, url, { token: visitor.idToken, body: method === 'POST' ? {} : undefined });
      expect([url, answer.status, answer.body.error.code]).toEqual([url, 403, 'verified_required']);
    }
  });

  it('refuses unknown plans and unfinished card setups', async () => {
    const user = await stack.users.email();
    const { setupId } = await saveCard(stack, user.idToken, CARD_OK);
    const noPlan = await stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body: { planId: 'gold', setupId, idempotencyKey: randomUUID() } });
    expect([noPlan.status, noPlan.body.error.code]).toEqual([404, 'plan_not_found']);
    const unknownSetup = await stack.call('POST', '/v1/purchase/subscribe', {
      token: user.idToken,
      body: { planId: 'standard', setupId: 'seti_nosuchsetup', idempotencyKey: randomUUID() },
    });
    expect([unknownSetup.status, unknownSetup.body.error.code]).toEqual([409, 'card_setup_incomplete']);
    // An amount in the body is not a field of the contract: refused, never charged.
    const withAmount = await stack.call('POST', '/v1/purchase/subscribe', {
      token: user.idToken,
      body: { planId: 'standard', setupId, idempotencyKey: randomUUID(), amount: 1 },
    });
    expect([withAmount.status, withAmount.body.error.code]).toEqual([400, 'invalid_request']);
  });
});

describe('subscribe with a good card', () => {
  it('is active, charged once on a double click, sets the claim, and lists the subscription', async () => {
    const user = await stack.users.email();
    const { setupId } = await saveCard(stack, user.idToken, CARD_OK);
    const body = { planId: 'standard', setupId, idempotencyKey: randomUUID() };
    const [first, second] = await Promise.all([
      stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body }),
      stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body).toMatchObject({ status: 'ok', result: 'active', action: null });
    expect(second.body.subscription.id).toBe(first.body.subscription.id);
    const sub = first.body.subscription;
    expect(sub).toMatchObject({
      status: 'active',
      plan: { id: 'standard', name: 'スタンダードプラン', amount_jpy: 980, interval: 'month', interval_count: 1 },
      cancel_at_period_end: false,
      entitled: true,
      access_until: sub.current_period_end,
      card: { brand: 'visa', last4: '4242', exp_month: 12 },
    });
    expect(sub.current_period_end).toBeGreaterThan(sub.created + 27 * DAY);

    // One subscription and one payment at the processor.
    const customerId = (await stack.schema.pool.query('SELECT customer_id FROM payment_customers WHERE uid = $1', [user.uid])).rows[0].customer_id;
    expect(await stack.sandbox.client.listSubscriptions(customerId)).toHaveLength(1);
    const invoices = await stack.sandbox.client.listInvoices(customerId);
    expect(invoices.map((invoice) => [invoice.status, invoice.amountPaidJpy])).toEqual([['paid', 980]]);

    expect(await stack.claim(user.uid)).toBe(sub.current_period_end);
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(true);
    expect(await stack.api.app.subscriptions.entitlements(user.uid)).toMatchObject({ subscriber: true, planId: 'standard', until: sub.current_period_end, premiumTitles: true });

    expect(await list(user.idToken)).toEqual({ status: 'ok', subscriptions: [sub] });
    const summary = (await stack.call('GET', '/v1/purchase/summary', { token: user.idToken })).body;
    expect(summary).toMatchObject({ status: 'ok', entitled: true, access_until: sub.current_period_end, subscription: sub, card: sub.card });
    expect(summary.invoices).toEqual([expect.objectContaining({ status: 'paid', amount_paid_jpy: 980, billing_reason: 'subscription_create', failure_message: null })]);

    // A second subscription (another key) is refused while this one runs.
    const again = await subscribeWith(stack, user.idToken, CARD_OK);
    expect([again.status, again.body.error.code]).toEqual([409, 'already_subscribed']);
    // The same key with another card is not the same request.
    const { setupId: otherSetup } = await saveCard(stack, user.idToken, CARD_OK);
    const reused = await stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body: { ...body, setupId: otherSetup } });
    expect([reused.status, reused.body.error.code]).toEqual([409, 'idempotency_conflict']);
  });
});

describe('declined cards', () => {
  it('a card refused by the form cannot subscribe', async () => {
    const user = await stack.users.email();
    const { setupId, formStatus } = await saveCard(stack, user.idToken, CARD_DECLINED_AT_SAVE);
    expect(formStatus).toBe(402);
    const answer = await stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body: { planId: 'standard', setupId, idempotencyKey: randomUUID() } });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('card_setup_incomplete');
    expect(answer.body.error.message).toMatch(/カード/);
    expect((await list(user.idToken)).subscriptions).toEqual([]);
  });

  it('a declined first payment is a typed error with a Japanese message, and no subscription', async () => {
    const user = await stack.users.email();
    const key = randomUUID();
    const declined = await subscribeWith(stack, user.idToken, CARD_DECLINED_AT_CHARGE, key);
    expect(declined.status).toBe(402);
    expect(declined.body.error.code).toBe('card_declined');
    expect(declined.body.error.message).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    expect((await list(user.idToken)).subscriptions).toEqual([]);
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(false);
    expect(await stack.claim(user.uid)).toBeNull();

    // The same press again answers the same refusal (no second charge attempt).
    const { rows } = await stack.schema.pool.query('SELECT setup_id FROM purchase_attempts WHERE idempotency_key = $1', [key]);
    const replay = await stack.call('POST', '/v1/purchase/subscribe', { token: user.idToken, body: { planId: 'standard', setupId: rows[0].setup_id, idempotencyKey: key } });
    expect([replay.status, replay.body.error]).toEqual([402, declined.body.error]);

    // Another card then works, and the declined start is ended at the processor.
    const ok = await subscribeWith(stack, user.idToken, CARD_OK);
    expect(ok.body.result).toBe('active');
    const statuses = (await stack.schema.pool.query('SELECT status FROM subscriptions WHERE uid = $1 ORDER BY created', [user.uid])).rows;
    expect(statuses.map((row) => row.status).sort()).toEqual(['active', 'incomplete_expired']);
    expect((await list(user.idToken)).subscriptions.map((sub: { status: string }) => sub.status)).toEqual(['active']);
  });
});

describe('3-D Secure', () => {
  it('requires action, then confirm after the challenge makes it active', async () => {
    const user = await stack.users.email();
    const started = await subscribeWith(stack, user.idToken, CARD_3DS);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ result: 'requires_action', subscription: { status: 'incomplete', entitled: false, access_until: null } });
    expect(started.body.action).toMatchObject({ kind: 'sandbox_challenge', origin: stack.sandbox.sandbox.url });
    expect((await list(user.idToken)).subscriptions).toEqual([]);
    expect(await stack.claim(user.uid)).toBeNull();

    // Confirming before the challenge: still waiting, same action.
    const early = await stack.call('POST', '/v1/purchase/confirm', { token: user.idToken, body: { subscriptionId: started.body.subscription.id } });
    expect(early.body).toMatchObject({ result: 'requires_action', action: { kind: 'sandbox_challenge' } });

    // Another user cannot confirm (or see) it.
    const stranger = await stack.users.email();
    const foreign = await stack.call('POST', '/v1/purchase/confirm', { token: stranger.idToken, body: { subscriptionId: started.body.subscription.id } });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'subscription_not_found']);

    expect((await answerChallenge(started.body.action.url, 'complete')).status).toBe(200);
    const confirmed = await stack.call('POST', '/v1/purchase/confirm', { token: user.idToken, body: { subscriptionId: started.body.subscription.id } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ result: 'active', action: null, subscription: { id: started.body.subscription.id, status: 'active', entitled: true } });
    expect(await stack.claim(user.uid)).toBe(confirmed.body.subscription.current_period_end);
    expect((await list(user.idToken)).subscriptions).toHaveLength(1);
  });

  it('a failed challenge is payment_failed and grants nothing', async () => {
    const user = await stack.users.email();
    const started = await subscribeWith(stack, user.idToken, CARD_3DS);
    await answerChallenge(started.body.action.url, 'fail');
    const confirmed = await stack.call('POST', '/v1/purchase/confirm', { token: user.idToken, body: { subscriptionId: started.body.subscription.id } });
    expect([confirmed.status, confirmed.body.error.code]).toEqual([402, 'payment_failed']);
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(false);
  });
});

describe('cancel, resume and the end of the period', () => {
  it('stays active until the period end, then the webhook ends it and the claim', async () => {
    const user = await stack.users.email();
    const sub = (await subscribeWith(stack, user.idToken, CARD_OK)).body.subscription;

    const canceled = await stack.call('POST', '/v1/purchase/cancel', { token: user.idToken });
    expect(canceled.body.subscription).toMatchObject({ id: sub.id, status: 'active', cancel_at_period_end: true, entitled: true });
    const resumed = await stack.call('POST', '/v1/purchase/resume', { token: user.idToken });
    expect(resumed.body.subscription).toMatchObject({ status: 'active', cancel_at_period_end: false });
    await stack.call('POST', '/v1/purchase/cancel', { token: user.idToken });
    expect(await stack.claim(user.uid)).toBe(sub.current_period_end);

    // A day before the end: still active.
    const { now } = await stack.sandbox.client.clock();
    await stack.sandbox.client.advanceClock(sub.current_period_end - now - DAY);
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(true);

    await passPeriodEnd(stack, sub.current_period_end);
    const ended = await waitFor(async () => {
      const [first] = (await list(user.idToken)).subscriptions;
      return first?.status === 'canceled' ? first : null;
    }, 10_000, 'the canceled subscription');
    expect(ended).toMatchObject({ id: sub.id, entitled: false, access_until: null, ended_at: sub.current_period_end });
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(false);
    // The claim is set right after the record: it now says "ended" (a time that has passed).
    await waitFor(async () => ((await stack.claim(user.uid)) ?? Infinity) <= Math.floor(Date.now() / 1000), 5_000, 'the ended claim');
    const resume = await stack.call('POST', '/v1/purchase/resume', { token: user.idToken });
    expect([resume.status, resume.body.error.code]).toEqual([409, 'subscription_inactive']);

    // A new subscription lists first (newest created first); the claim follows it.
    const renewed = (await subscribeWith(stack, user.idToken, CARD_OK)).body.subscription;
    expect((await list(user.idToken)).subscriptions.map((s: { id: string }) => s.id)).toEqual([renewed.id, sub.id]);
    expect(await stack.claim(user.uid)).toBe(renewed.current_period_end);

    // Nobody else sees either.
    const stranger = await stack.users.email();
    expect((await list(stranger.idToken)).subscriptions).toEqual([]);
    const strangerCancel = await stack.call('POST', '/v1/purchase/cancel', { token: stranger.idToken });
    expect([strangerCancel.status, strangerCancel.body.error.code]).toEqual([409, 'subscription_inactive']);
  });

  it('changes the card renewals are charged to', async () => {
    const user = await stack.users.email();
    await subscribeWith(stack, user.idToken, CARD_OK);
    const { setupId } = await saveCard(stack, user.idToken, '5555555555554444');
    const changed = await stack.call('POST', '/v1/purchase/card', { token: user.idToken, body: { setupId } });
    expect(changed.status).toBe(200);
    expect(changed.body.subscription.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect((await stack.call('GET', '/v1/purchase/summary', { token: user.idToken })).body.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
  });
});

describe('card data', () => {
  it('never reaches our tables', async () => {
    const tables = ['subscriptions', 'payment_customers', 'purchase_attempts', 'payment_requests', 'webhook_events'];
    for (const table of tables) {
      const { rows } = await stack.schema.pool.query(`SELECT row_to_json(t)::text AS text FROM ${table} t`);
      const text = rows.map((row) => row.text).join('\n');
      for (const number of [CARD_OK, CARD_3DS, CARD_DECLINED_AT_CHARGE, '5555555555554444']) expect(text).not.toContain(number);
    }
    expect((await stack.schema.pool.query('SELECT count(*)::int AS n FROM subscriptions')).rows[0].n).toBeGreaterThan(0);
  });
});
