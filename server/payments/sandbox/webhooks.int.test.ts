/**
 * The sandbox's webhooks: every delivery is signed in Stripe's scheme and verifies with both our
 * verifier (SandboxProcessor.verifyWebhook) and the Stripe SDK's constructEvent; a tampered
 * body, a wrong secret, an old timestamp, a missing or malformed header are refused with typed
 * errors; events have unique ids and carry the object; a receiver that fails gets the same
 * event again with back-off until it answers 2xx, and a delivery is given up after the last
 * attempt.
 */
import Stripe from 'stripe';
import { signPayload } from '../signature';
import { purchase, startHarness, waitFor, WEBHOOK_SECRET, type Harness } from './testing/harness';

jest.setTimeout(30_000);

describe('payments sandbox: signed webhooks', () => {
  let h: Harness;
  const stripe = new Stripe('sk_test_unused', { telemetry: false });

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('signs every delivery so both our verifier and Stripe’s constructEvent accept it', async () => {
    const { subscription } = await purchase(h, 'webhook-user', '4242424242424242');
    const hooks = await waitFor(() => {
      const found = h.receiver.received.filter((hook) => hook.rawBody.includes(subscription.id));
      return found.length >= 2 && found;
    }, 5_000, 'two webhooks');

    for (const hook of hooks) {
      expect(hook.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const ours = h.client.verifyWebhook({ rawBody: hook.rawBody, signature: hook.signature });
      expect(ours.ok).toBe(true);
      const theirs = stripe.webhooks.constructEvent(hook.rawBody, hook.signature!, WEBHOOK_SECRET);
      expect(theirs.id).toBe(JSON.parse(hook.rawBody).id);
    }
    const created = hooks.map((hook) => h.client.verifyWebhook({ rawBody: hook.rawBody, signature: hook.signature })).find((result) => result.ok && result.event.type === 'customer.subscription.created');
    expect(created).toBeDefined();
    if (created?.ok && created.event.type === 'customer.subscription.created') {
      expect(created.event.subscription).toMatchObject({ id: subscription.id, status: 'active', amountJpy: 980, planId: 'standard', metadata: { uid: 'webhook-user' } });
    }
    const paid = hooks.map((hook) => h.client.verifyWebhook({ rawBody: hook.rawBody, signature: hook.signature })).find((result) => result.ok && result.event.type === 'invoice.paid');
    if (paid?.ok && paid.event.type === 'invoice.paid') {
      expect(paid.event.invoice).toMatchObject({ subscriptionId: subscription.id, status: 'paid', amountPaidJpy: 980 });
    } else {
      throw new Error('no invoice.paid event');
    }
    const ids = h.receiver.received.map((hook) => JSON.parse(hook.rawBody).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a tampered body, a wrong secret, an old or future timestamp, and a missing or malformed header', async () => {
    const hook = h.receiver.received.find((candidate) => JSON.parse(candidate.rawBody).type === 'customer.subscription.created')!;
    const verify = (rawBody: string, signature: string | undefined) => h.client.verifyWebhook({ rawBody, signature });

    const tampered = hook.rawBody.replace('"active"', '"canceled"');
    expect(tampered).not.toBe(hook.rawBody);
    expect(verify(tampered, hook.signature)).toMatchObject({ ok: false, error: 'bad_signature' });
    expect(verify(hook.rawBody, signPayload('whsec_other', hook.rawBody))).toMatchObject({ ok: false, error: 'bad_signature' });

    const now = Math.floor(Date.now() / 1000);
    expect(verify(hook.rawBody, signPayload(WEBHOOK_SECRET, hook.rawBody, now - 600))).toMatchObject({ ok: false, error: 'timestamp_out_of_tolerance' });
    expect(verify(hook.rawBody, signPayload(WEBHOOK_SECRET, hook.rawBody, now + 600))).toMatchObject({ ok: false, error: 'timestamp_out_of_tolerance' });
    expect(verify(hook.rawBody, signPayload(WEBHOOK_SECRET, hook.rawBody, now - 120))).toMatchObject({ ok: true });

    expect(verify(hook.rawBody, undefined)).toMatchObject({ ok: false, error: 'missing_signature' });
    expect(verify(hook.rawBody, 'v1=abc')).toMatchObject({ ok: false, error: 'malformed_signature' });
    expect(verify('not json', signPayload(WEBHOOK_SECRET, 'not json'))).toMatchObject({ ok: false, error: 'malformed_payload' });

    // A Stripe test header (the SDK's own helper) is accepted by our verifier: one scheme.
    const stripeSigned = stripe.webhooks.generateTestHeaderString({ payload: hook.rawBody, secret: WEBHOOK_SECRET });
    expect(verify(hook.rawBody, stripeSigned)).toMatchObject({ ok: true });
    // A rotation header with an old v1 first and the current one second is accepted.
    const current = signPayload(WEBHOOK_SECRET, hook.rawBody, now);
    expect(verify(hook.rawBody, `t=${now},v1=${'0'.repeat(64)},${current.split(',')[1]}`)).toMatchObject({ ok: true });
  });

  it('maps events it does not model to type "other"', async () => {
    const setupEvent = h.receiver.received.find((hook) => JSON.parse(hook.rawBody).type === 'setup_intent.succeeded');
    expect(setupEvent).toBeDefined();
    expect(h.client.verifyWebhook({ rawBody: setupEvent!.rawBody, signature: setupEvent!.signature })).toMatchObject({
      ok: true,
      event: { type: 'other', originalType: 'setup_intent.succeeded' },
    });
  });

  it('retries a failed delivery with the same event and body until the receiver answers 2xx', async () => {
    const failures = new Map<string, number>();
    h.receiver.respond = ({ rawBody }) => {
      const event = JSON.parse(rawBody);
      if (event.type !== 'invoice.paid') return 200;
      const seen = failures.get(event.id) ?? 0;
      failures.set(event.id, seen + 1);
      return seen < 2 ? 503 : 200;
    };
    try {
      const { subscription } = await purchase(h, 'flaky-receiver', '4242424242424242');
      const attempts = await waitFor(() => {
        const found = h.receiver.received.filter((hook) => hook.rawBody.includes(subscription.id) && JSON.parse(hook.rawBody).type === 'invoice.paid');
        return found.length >= 3 && found;
      }, 10_000, 'three attempts');
      expect(attempts.map((hook) => hook.status)).toEqual([503, 503, 200]);
      expect(new Set(attempts.map((hook) => hook.rawBody)).size).toBe(1);
      const eventId = JSON.parse(attempts[0].rawBody).id;
      // The receiver has answered the third attempt; the sandbox writes its record right after.
      const delivery = await waitFor(async () => {
        const [d] = await h.client.deliveries(eventId);
        return d?.last_status === 200 && d;
      }, 10_000, 'the delivery recorded');
      expect(delivery).toMatchObject({ attempts: 3, last_status: 200, failed_at: null });
      expect(delivery.delivered_at).not.toBeNull();
    } finally {
      h.receiver.respond = () => 200;
    }
  });

  it('gives a delivery up after the last attempt (the event stays readable)', async () => {
    h.receiver.respond = ({ rawBody }) => (JSON.parse(rawBody).data.object.metadata?.uid === 'dead-receiver' ? 500 : 200);
    try {
      const { subscription } = await purchase(h, 'dead-receiver', '4242424242424242');
      const events = await h.client.events({ type: 'customer.subscription.created' });
      const event = events.find((candidate) => candidate.data.object.id === subscription.id)!;
      const delivery = await waitFor(async () => {
        const [found] = await h.client.deliveries(event.id);
        return found?.failed_at ? found : undefined;
      }, 15_000, 'given-up delivery');
      expect(delivery).toMatchObject({ attempts: 5, last_status: 500, delivered_at: null });
    } finally {
      h.receiver.respond = () => 200;
    }
  });
});
