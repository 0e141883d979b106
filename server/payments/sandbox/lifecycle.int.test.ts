/**
 * Subscription lifecycle in the sandbox, driven by its clock: a renewal at period end extends
 * the period and charges again (JPY, the plan's amount); cancel at period end keeps the plan
 * until then and ends it there (resume undoes it); a renewal on a card that now declines makes
 * the subscription past_due, retried during the grace period, then canceled (payment_failed);
 * a retry that succeeds makes it active again. Each change is reported by webhook.
 */
import type { ProcessorSubscription } from '../processor';
import { purchase, startHarness, submitCard, waitFor, WEB_ORIGIN, type Harness } from './testing/harness';

jest.setTimeout(30_000);

const DAY = 86_400;

describe('payments sandbox: subscription lifecycle on the test clock', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ retryScheduleSeconds: [1 * DAY, 3 * DAY, 5 * DAY] });
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** Moves the sandbox clock to `seconds` after the subscription's current period end. */
  async function passPeriodEnd(sub: ProcessorSubscription, seconds = 60) {
    const { now } = await h.client.clock();
    return h.client.advanceClock(sub.currentPeriodEnd - now + seconds);
  }

  function eventsFor(subscriptionId: string) {
    return h.receiver.accepted().filter((event) => event.data.object.id === subscriptionId || event.data.object.subscription === subscriptionId);
  }

  it('renews at period end: the period moves on by one month and a second invoice is paid', async () => {
    const start = await purchase(h, 'renewing-user', '4242424242424242');
    expect(start.outcome).toBe('active');
    const first = start.subscription;
    expect(first.status).toBe('active');
    expect(first.amountJpy).toBe(980);
    const firstEnd = new Date(first.currentPeriodEnd * 1000);
    const startDate = new Date(first.currentPeriodStart * 1000);
    // One calendar month (day clamped at month end).
    expect((firstEnd.getUTCFullYear() - startDate.getUTCFullYear()) * 12 + firstEnd.getUTCMonth() - startDate.getUTCMonth()).toBe(1);

    await passPeriodEnd(first);
    const renewed = await h.client.getSubscription(first.id);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodStart).toBe(first.currentPeriodEnd);
    expect(renewed.currentPeriodEnd).toBeGreaterThan(first.currentPeriodEnd + 27 * DAY);

    const invoices = await h.client.listInvoices(first.customerId);
    expect(invoices.map((invoice) => [invoice.billingReason, invoice.status, invoice.amountPaidJpy])).toEqual([
      ['subscription_cycle', 'paid', 980],
      ['subscription_create', 'paid', 980],
    ]);
    expect(invoices[0]).toMatchObject({ periodStart: first.currentPeriodEnd, periodEnd: renewed.currentPeriodEnd, paidAt: first.currentPeriodEnd });

    await waitFor(
      () => eventsFor(first.id).filter((e) => e.type === 'invoice.paid').length === 2 && eventsFor(first.id).some((e) => e.type === 'customer.subscription.updated'),
      5_000,
      'renewal webhooks',
    );
  });

  it('cancel at period end keeps the plan until then, ends it there, and charges nothing more', async () => {
    const { subscription } = await purchase(h, 'leaving-user', '4242424242424242');
    const canceling = await h.client.cancelAtPeriodEnd(subscription.id);
    expect(canceling).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancellationReason: 'cancellation_requested' });

    // Still active a day before the end.
    const { now } = await h.client.clock();
    await h.client.advanceClock(subscription.currentPeriodEnd - now - DAY);
    expect((await h.client.getSubscription(subscription.id)).status).toBe('active');

    await h.client.advanceClock(2 * DAY);
    const ended = await h.client.getSubscription(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', endedAt: subscription.currentPeriodEnd, currentPeriodEnd: subscription.currentPeriodEnd });
    expect(await h.client.listInvoices(subscription.customerId)).toHaveLength(1);
    await waitFor(() => eventsFor(subscription.id).some((e) => e.type === 'customer.subscription.deleted'), 5_000, 'deleted webhook');

    // An ended subscription cannot be resumed.
    await expect(h.client.resumeSubscription(subscription.id)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('resume before the end undoes the cancellation and the subscription renews', async () => {
    const { subscription } = await purchase(h, 'returning-user', '4242424242424242');
    await h.client.cancelAtPeriodEnd(subscription.id);
    const resumed = await h.client.resumeSubscription(subscription.id);
    expect(resumed).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, canceledAt: null, cancellationReason: null });
    await passPeriodEnd(subscription);
    const renewed = await h.client.getSubscription(subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodEnd).toBeGreaterThan(subscription.currentPeriodEnd);
  });

  it('a declined renewal → past_due, retried over the grace period, then canceled for non-payment', async () => {
    const start = await purchase(h, 'card-expired-user', '4242424242424242');
    await h.client.setCardBehaviour(start.paymentMethodId, 'decline');
    const periodEnd = start.subscription.currentPeriodEnd;

    await passPeriodEnd(start.subscription);
    const pastDue = await h.client.getSubscription(start.subscription.id);
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.currentPeriodStart).toBe(periodEnd);
    let [invoice] = await h.client.listInvoices(start.subscription.customerId);
    expect(invoice).toMatchObject({ status: 'open', attemptCount: 1, amountPaidJpy: 0, nextPaymentAttempt: periodEnd + DAY });
    expect(invoice.lastFailure?.code).toBe('card_declined');

    // Retries at +1 and +3 days fail: still past_due.
    await h.client.advanceClock(3 * DAY);
    [invoice] = await h.client.listInvoices(start.subscription.customerId);
    expect(invoice).toMatchObject({ status: 'open', attemptCount: 3, nextPaymentAttempt: periodEnd + 5 * DAY });
    expect((await h.client.getSubscription(start.subscription.id)).status).toBe('past_due');

    // The last retry at +5 days fails: the grace period is over.
    await h.client.advanceClock(2 * DAY);
    const ended = await h.client.getSubscription(start.subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', cancellationReason: 'payment_failed', endedAt: periodEnd + 5 * DAY });
    [invoice] = await h.client.listInvoices(start.subscription.customerId);
    expect(invoice).toMatchObject({ status: 'uncollectible', attemptCount: 4, nextPaymentAttempt: null });

    await waitFor(() => eventsFor(start.subscription.id).some((e) => e.type === 'customer.subscription.deleted'), 5_000, 'deleted webhook');
    const failures = eventsFor(start.subscription.id).filter((e) => e.type === 'invoice.payment_failed');
    expect(failures).toHaveLength(4);
    const statuses = eventsFor(start.subscription.id)
      .filter((e) => e.type.startsWith('customer.subscription'))
      .map((e) => e.data.object.status);
    expect(statuses).toEqual(expect.arrayContaining(['past_due', 'canceled']));
  });

  it('a retry that succeeds (the card works again) makes a past_due subscription active', async () => {
    const start = await purchase(h, 'recovering-user', '4242424242424242');
    await h.client.setCardBehaviour(start.paymentMethodId, 'decline');
    await passPeriodEnd(start.subscription);
    expect((await h.client.getSubscription(start.subscription.id)).status).toBe('past_due');

    await h.client.setCardBehaviour(start.paymentMethodId, 'succeed');
    await h.client.advanceClock(DAY);
    const recovered = await h.client.getSubscription(start.subscription.id);
    expect(recovered.status).toBe('active');
    const [invoice] = await h.client.listInvoices(start.subscription.customerId);
    expect(invoice).toMatchObject({ status: 'paid', attemptCount: 2, amountPaidJpy: 980 });
  });

  it('a new card set as default is the one the retry charges', async () => {
    const start = await purchase(h, 'new-card-user', '4242424242424242');
    await h.client.setCardBehaviour(start.paymentMethodId, 'decline');
    await passPeriodEnd(start.subscription);

    const setup = await h.client.createCardSetup({ customerId: start.subscription.customerId, webOrigin: WEB_ORIGIN });
    expect((await submitCard(setup, { number: '5555555555554444' })).status).toBe(200);
    const newCard = (await h.client.getCardSetup(setup.id)).paymentMethodId!;
    await h.client.setDefaultPaymentMethod(start.subscription.customerId, newCard, start.subscription.id);
    expect((await h.client.getSubscription(start.subscription.id)).defaultPaymentMethodId).toBe(newCard);
    expect((await h.client.getCustomer(start.subscription.customerId)).defaultPaymentMethodId).toBe(newCard);

    await h.client.advanceClock(DAY);
    expect((await h.client.getSubscription(start.subscription.id)).status).toBe('active');
  });

  it('cancelNow ends it at once', async () => {
    const { subscription } = await purchase(h, 'deleted-account', '4242424242424242');
    const ended = await h.client.cancelNow(subscription.id);
    expect(ended.status).toBe('canceled');
    expect(ended.endedAt).not.toBeNull();
    expect((await h.client.listSubscriptions(subscription.customerId)).map((s) => s.status)).toEqual(['canceled']);
  });
});
