/**
 * The webhook route against a real payments sandbox: a forged, unsigned or stale signature is a
 * 400 and changes nothing; a replayed event id changes nothing; an event out of order (an old
 * state under a new id) cannot roll a subscription back, because the subscription is read again
 * from the processor; renewals extend the claim; a declined renewal is past_due with a grace
 * period, then canceled, and the claim ends with it.
 */
import { signPayload } from '../../../payments/signature';
import { waitFor } from '../../testing/sessions';
import {
  answerChallenge,
  CARD_3DS,
  CARD_OK,
  DAY,
  passPeriodEnd,
  startPaymentsStack,
  subscribeWith,
  subscriptionRow,
  WEBHOOK_SECRET,
  type PaymentsStack,
} from './testing/stack';

jest.setTimeout(60_000);

let stack: PaymentsStack;

beforeAll(async () => {
  stack = await startPaymentsStack('webhooks');
});

afterAll(async () => {
  await stack?.stop();
});

const post = (body: string, signature?: string) =>
  stack.call('POST', '/v1/payments/webhook', { body, headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) } });

const appliedEvents = async () => (await stack.schema.pool.query('SELECT count(*)::int AS n FROM webhook_events')).rows[0].n as number;

async function processorId(id: string): Promise<string> {
  return (await subscriptionRow(stack, id))!.processor_subscription_id as string;
}

/** The sandbox's events about one processor subscription, oldest first. */
async function eventsAbout(processorSubscriptionId: string) {
  const events = await stack.sandbox.client.events({ limit: 100 });
  return events
    .filter((event) => {
      const object = event.data.object as { id?: string; subscription?: string | null };
      return object.id === processorSubscriptionId || object.subscription === processorSubscriptionId;
    })
    .reverse();
}

/** Waits until the sandbox delivered each event to our api (and our api answered 2xx). */
async function allDelivered(events: Array<{ id: string }>): Promise<void> {
  await waitFor(async () => {
    const deliveries = await Promise.all(events.map((event) => stack.sandbox.client.deliveries(event.id)));
    return deliveries.every((list) => list[0]?.delivered_at);
  }, 10_000, 'every delivery');
}

describe('signatures', () => {
  it('refuses forged, missing, malformed and stale signatures without changing anything', async () => {
    const user = await stack.users.email();
    const sub = (await subscribeWith(stack, user.idToken, CARD_OK)).body.subscription;
    const pid = await processorId(sub.id);
    const events = await eventsAbout(pid);
    const [created] = events;
    await allDelivered(events);
    const before = { row: await subscriptionRow(stack, sub.id), events: await appliedEvents(), claim: await stack.claim(user.uid) };

    // An attacker's "deleted" event for this subscription.
    const forged = JSON.stringify({ ...created, id: 'evt_forged000000000000000000', type: 'customer.subscription.deleted', data: { object: { ...created.data.object, status: 'canceled' } } });
    for (const signature of [signPayload('whsec_not_ours', forged), undefined, 'garbage', signPayload(WEBHOOK_SECRET, forged, Math.floor(Date.now() / 1000) - 600)]) {
      const answer = await post(forged, signature);
      expect([signature?.slice(0, 8), answer.status, answer.body.error?.code]).toEqual([signature?.slice(0, 8), 400, 'invalid_request']);
    }
    // A body changed after signing.
    const signed = signPayload(WEBHOOK_SECRET, JSON.stringify(created));
    expect((await post(forged, signed)).status).toBe(400);

    expect({ row: await subscriptionRow(stack, sub.id), events: await appliedEvents(), claim: await stack.claim(user.uid) }).toEqual(before);
  });
});

describe('replays and order', () => {
  it('applies an event id once, and never rolls a subscription back to an older state', async () => {
    const user = await stack.users.email();
    const started = await subscribeWith(stack, user.idToken, CARD_3DS);
    const id = started.body.subscription.id;
    await answerChallenge(started.body.action.url, 'complete');
    const pid = await processorId(id);
    // The webhook after 3-D Secure makes it active and sets the claim (no confirm call here).
    await waitFor(async () => (await stack.claim(user.uid)) === started.body.subscription.current_period_end, 10_000, 'the claim after 3-D Secure');
    expect((await subscriptionRow(stack, id))!.status).toBe('active');

    const events = await eventsAbout(pid);
    const created = events.find((event) => event.type === 'customer.subscription.created')!;
    expect((created.data.object as { status: string }).status).toBe('incomplete');
    await allDelivered(events);
    const before = { row: await subscriptionRow(stack, id), events: await appliedEvents() };

    // The same event again (a retry, or a captured request signed anew): nothing happens.
    const replay = await post(JSON.stringify(created), signPayload(WEBHOOK_SECRET, JSON.stringify(created)));
    expect(replay.body).toEqual({ status: 'ok', duplicate: true });
    expect({ row: await subscriptionRow(stack, id), events: await appliedEvents() }).toEqual(before);

    // An old state arriving late under a new id: the processor's current state wins.
    const late = JSON.stringify({ ...created, id: 'evt_late00000000000000000000' });
    const answer = await post(late, signPayload(WEBHOOK_SECRET, late));
    expect(answer.body).toEqual({ status: 'ok', duplicate: false });
    expect((await subscriptionRow(stack, id))!.status).toBe('active');
    expect(await appliedEvents()).toBe(before.events + 1);
    expect(await stack.api.app.subscriptions.isActiveSubscriber(user.uid)).toBe(true);
  });

  it('acknowledges events it does not use, and subscriptions of no user it knows', async () => {
    const other = JSON.stringify({ id: 'evt_other0000000000000000000', object: 'event', created: 1, type: 'charge.refunded', data: { object: { id: 'ch_1' } } });
    expect((await post(other, signPayload(WEBHOOK_SECRET, other))).body).toEqual({ status: 'ok', duplicate: false });

    const [sample] = await stack.sandbox.client.events({ type: 'customer.subscription.created', limit: 1 });
    const stranger = JSON.stringify({ ...sample, id: 'evt_stranger000000000000000', data: { object: { ...sample.data.object, id: 'sub_nosuchsubscription', customer: 'cus_nosuchcustomer' } } });
    const rows = (await stack.schema.pool.query('SELECT count(*)::int AS n FROM subscriptions')).rows[0].n;
    expect((await post(stranger, signPayload(WEBHOOK_SECRET, stranger))).body).toEqual({ status: 'ok', duplicate: false });
    expect((await stack.schema.pool.query('SELECT count(*)::int AS n FROM subscriptions')).rows[0].n).toBe(rows);
  });
});

describe('renewals and failed payments', () => {
  it('a renewal extends the claim; a declined renewal is past_due within the grace period, then ends', async () => {
    const [renewing, failing] = [await stack.users.email(), await stack.users.email()];
    const good = (await subscribeWith(stack, renewing.idToken, CARD_OK)).body.subscription;
    const bad = (await subscribeWith(stack, failing.idToken, CARD_OK)).body.subscription;
    const badSub = await stack.sandbox.client.getSubscription(await processorId(bad.id));
    await stack.sandbox.client.setCardBehaviour(badSub.defaultPaymentMethodId!, 'decline');

    await passPeriodEnd(stack, Math.max(good.current_period_end, bad.current_period_end));
    const renewed = await waitFor(async () => {
      const [first] = (await stack.call('GET', '/api/subscriptions', { token: renewing.idToken })).body.subscriptions;
      return first.current_period_end > good.current_period_end ? first : null;
    }, 10_000, 'the renewal');
    expect(renewed).toMatchObject({ status: 'active', entitled: true, access_until: renewed.current_period_end });
    await waitFor(async () => (await stack.claim(renewing.uid)) === renewed.current_period_end, 5_000, 'the renewed claim');

    const pastDue = await waitFor(async () => {
      const [first] = (await stack.call('GET', '/api/subscriptions', { token: failing.idToken })).body.subscriptions;
      return first.status === 'past_due' ? first : null;
    }, 10_000, 'past_due');
    const now = Math.floor(Date.now() / 1000);
    // Still granted during the grace period (7 days on our clock), and the claim says until when.
    expect(pastDue.entitled).toBe(true);
    expect(pastDue.access_until).toBeGreaterThan(now + 6 * DAY);
    await waitFor(async () => (await stack.claim(failing.uid)) === pastDue.access_until, 5_000, 'the grace claim');
    expect(await stack.api.app.subscriptions.isActiveSubscriber(failing.uid)).toBe(true);
    const summary = (await stack.call('GET', '/v1/purchase/summary', { token: failing.idToken })).body;
    expect(summary.invoices[0]).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle', amount_paid_jpy: 0, failure_message: expect.any(String) });

    // The processor's last retry fails: canceled for non-payment, and the plan ends now.
    await stack.sandbox.client.advanceClock(6 * DAY);
    await waitFor(async () => (await subscriptionRow(stack, bad.id))?.status === 'canceled', 10_000, 'canceled');
    expect(await stack.api.app.subscriptions.isActiveSubscriber(failing.uid)).toBe(false);
    await waitFor(async () => ((await stack.claim(failing.uid)) ?? Infinity) <= Math.floor(Date.now() / 1000), 5_000, 'the ended claim');
    expect(await stack.api.app.subscriptions.isActiveSubscriber(renewing.uid)).toBe(true);
  });
});
