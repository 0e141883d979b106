/**
 * The Stripe implementation, offline: the official SDK pointed at a local recorded-response
 * server (testing/recorded-stripe.ts), and webhooks signed with the SDK's own
 * generateTestHeaderString. Checks the parameters the SDK really sends (default_incomplete,
 * expand, the Price checked against our plan, idempotency keys, the pinned API version), the
 * three outcomes of a first payment (paid, 3-D Secure, declined with our Japanese message), the
 * mapping of subscriptions / invoices / cards, errors, and webhook verification (tampered,
 * replayed, old API version shapes).
 */
import Stripe from 'stripe';
import type { PlanPrice } from '../processor';
import type { StripeConfig } from './config';
import { StripeProcessor } from './processor';
import * as fx from './testing/fixtures';
import { RecordedStripe, type Answer } from './testing/recorded-stripe';

jest.setTimeout(30_000);

const PLAN: PlanPrice = { planId: 'standard', name: 'スタンダードプラン', amountJpy: 980, interval: 'month', intervalCount: 1 };
const WEBHOOK_SECRET = 'whsec_test_adapter';

describe('Stripe processor (SDK against recorded responses)', () => {
  const server = new RecordedStripe();
  let processor: StripeProcessor;
  const sdk = new Stripe('sk_test_unused', { telemetry: false });

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(() => {
    server.reset();
    const config: StripeConfig = {
      secretKey: 'sk_test_adapter',
      publishableKey: 'pk_test_adapter',
      webhookSecret: WEBHOOK_SECRET,
      priceIds: { standard: fx.PRICE_ID },
      api: { host: '127.0.0.1', port: server.port, protocol: 'http' },
    };
    processor = new StripeProcessor(config);
    server.on('GET', `/v1/prices/${fx.PRICE_ID}`, { body: fx.price() });
  });

  it('ensureCustomer searches by uid, then creates with an idempotency key and the uid in metadata', async () => {
    server.on('GET', '/v1/customers/search', { body: { object: 'search_result', data: [], has_more: false, url: '/v1/customers/search' } });
    server.on('POST', '/v1/customers', { body: fx.customer() });
    const customer = await processor.ensureCustomer({ uid: 'uid-1', email: 'buyer@example.com' });
    expect(customer).toEqual({ id: 'cus_Test123', uid: 'uid-1', email: 'buyer@example.com', defaultPaymentMethodId: null, created: fx.T0 });
    const [search] = server.calls('GET', '/v1/customers/search');
    expect(search.query.get('query')).toBe("metadata['uid']:'uid-1'");
    const [create] = server.calls('POST', '/v1/customers');
    expect(create.form).toEqual({ email: 'buyer@example.com', 'metadata[uid]': 'uid-1' });
    expect(create.headers['idempotency-key']).toBe('customer-create:uid-1');
    expect(create.headers.authorization).toBe('Bearer sk_test_adapter');
    expect(create.headers['stripe-version']).toBe(Stripe.API_VERSION);
  });

  it('ensureCustomer with a stored id retrieves it and updates a changed e-mail', async () => {
    server.on('GET', '/v1/customers/cus_Test123', { body: fx.customer({ email: 'old@example.com' }) });
    server.on('POST', '/v1/customers/cus_Test123', { body: fx.customer({ email: 'new@example.com' }) });
    const customer = await processor.ensureCustomer({ uid: 'uid-1', email: 'new@example.com', customerId: 'cus_Test123' });
    expect(customer.email).toBe('new@example.com');
    expect(server.calls('POST', '/v1/customers/cus_Test123')[0].form).toEqual({ email: 'new@example.com' });
    expect(server.calls('GET', '/v1/customers/search')).toHaveLength(0);
  });

  it('createCardSetup makes an off-session card SetupIntent for the Payment Element', async () => {
    server.on('POST', '/v1/setup_intents', { body: fx.setupIntent() });
    const setup = await processor.createCardSetup({ customerId: 'cus_Test123', webOrigin: 'https://yumecast.example', idempotencyKey: 'setup-1' });
    expect(setup.mount).toEqual({ kind: 'stripe_payment_element', publishableKey: 'pk_test_adapter', clientSecret: 'seti_Test123_secret_xyz' });
    expect(setup.status).toBe('requires_payment_method');
    const [call] = server.calls('POST', '/v1/setup_intents');
    expect(call.form).toEqual({ customer: 'cus_Test123', 'allowed_payment_method_types[0]': 'card', usage: 'off_session' });
    expect(call.headers['idempotency-key']).toBe('setup-1');

    server.on('GET', '/v1/setup_intents/seti_Test123', { body: fx.setupIntent({ status: 'succeeded', payment_method: 'pm_Card4242' }) });
    expect(await processor.getCardSetup('seti_Test123')).toMatchObject({ status: 'succeeded', paymentMethodId: 'pm_Card4242' });
    server.on('GET', '/v1/customers/cus_Test123/payment_methods', { body: fx.list([fx.paymentMethod()], '/v1/customers/cus_Test123/payment_methods') });
    expect(await processor.listPaymentMethods('cus_Test123')).toEqual([
      { id: 'pm_Card4242', customerId: 'cus_Test123', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, created: fx.T0 },
    ]);
  });

  function subscriptionRoutes(pay: Answer | ((request: unknown) => Answer), after: Record<string, unknown>) {
    server.on('POST', '/v1/subscriptions', { body: fx.subscription() });
    server.on('POST', '/v1/invoices/in_First/pay', pay as Answer);
    server.on('GET', '/v1/subscriptions/sub_Test123', { body: fx.subscription(after) });
  }

  it('createSubscription: default_incomplete, then the first invoice paid server-side → active', async () => {
    subscriptionRoutes(
      { body: fx.invoice({ status: 'paid', amount_paid: 980, confirmation_secret: null }) },
      { status: 'active', latest_invoice: fx.invoice({ status: 'paid', amount_paid: 980 }) },
    );
    const start = await processor.createSubscription({ customerId: 'cus_Test123', plan: PLAN, paymentMethodId: 'pm_Card4242', idempotencyKey: 'buy-1', webOrigin: 'https://yumecast.example', metadata: { uid: 'uid-1' } });
    expect(start.outcome).toBe('active');
    expect(start.subscription).toMatchObject({
      id: 'sub_Test123',
      status: 'active',
      planId: 'standard',
      amountJpy: 980,
      currentPeriodStart: fx.T0,
      currentPeriodEnd: fx.MONTH_END,
      cancelAtPeriodEnd: false,
      pendingAction: null,
    });
    const [create] = server.calls('POST', '/v1/subscriptions');
    expect(create.form).toMatchObject({
      customer: 'cus_Test123',
      'items[0][price]': fx.PRICE_ID,
      default_payment_method: 'pm_Card4242',
      payment_behavior: 'default_incomplete',
      'payment_settings[payment_method_types][0]': 'card',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'metadata[plan]': 'standard',
      'metadata[uid]': 'uid-1',
      'expand[0]': 'latest_invoice.confirmation_secret',
    });
    expect(create.headers['idempotency-key']).toBe('buy-1');
    const [pay] = server.calls('POST', '/v1/invoices/in_First/pay');
    expect(pay.form).toEqual({ payment_method: 'pm_Card4242' });
    expect(pay.headers['idempotency-key']).toBe('buy-1:pay');

    // The Price is checked against the plan once, not on every purchase.
    await processor.createSubscription({ customerId: 'cus_Test123', plan: PLAN, paymentMethodId: 'pm_Card4242', idempotencyKey: 'buy-2', webOrigin: 'x' });
    expect(server.calls('GET', `/v1/prices/${fx.PRICE_ID}`)).toHaveLength(1);
  });

  it('createSubscription: Stripe asks for 3-D Secure → requires_action with the invoice’s client secret', async () => {
    subscriptionRoutes(fx.stripeError(402, { type: 'card_error', code: 'invoice_payment_intent_requires_action' }), {});
    const start = await processor.createSubscription({ customerId: 'cus_Test123', plan: PLAN, paymentMethodId: 'pm_Card4242', idempotencyKey: 'buy-3ds', webOrigin: 'x' });
    expect(start.outcome).toBe('requires_action');
    expect(start.action).toEqual({ kind: 'stripe_confirm_payment', publishableKey: 'pk_test_adapter', clientSecret: fx.CLIENT_SECRET });
    expect(start.subscription.status).toBe('incomplete');
  });

  it('createSubscription: a decline → declined with our Japanese message, nothing thrown', async () => {
    subscriptionRoutes(fx.stripeError(402, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' }), {});
    const start = await processor.createSubscription({ customerId: 'cus_Test123', plan: PLAN, paymentMethodId: 'pm_Card4242', idempotencyKey: 'buy-declined', webOrigin: 'x' });
    expect(start.outcome).toBe('declined');
    expect(start.failure).toEqual({ code: 'card_declined', declineCode: 'insufficient_funds', message: expect.stringContaining('ご利用可能額が不足') });
  });

  it('refuses to subscribe when the Stripe Price does not match our plan, or the plan has no price', async () => {
    server.on('GET', `/v1/prices/${fx.PRICE_ID}`, { body: fx.price({ unit_amount: 1200 }) });
    await expect(processor.createSubscription({ customerId: 'cus_Test123', plan: PLAN, paymentMethodId: 'pm_1', idempotencyKey: 'k', webOrigin: 'x' })).rejects.toMatchObject({ code: 'configuration' });
    await expect(processor.createSubscription({ customerId: 'cus_Test123', plan: { ...PLAN, planId: 'premium' }, paymentMethodId: 'pm_1', idempotencyKey: 'k', webOrigin: 'x' })).rejects.toMatchObject({ code: 'configuration' });
    expect(server.calls('POST', '/v1/subscriptions')).toHaveLength(0);
  });

  it('cancel at period end, resume, cancel now, list invoices', async () => {
    server.on('POST', '/v1/subscriptions/sub_Test123', (request) => ({
      body: fx.subscription({ status: 'active', cancel_at_period_end: request.form.cancel_at_period_end === 'true', latest_invoice: fx.invoice({ status: 'paid' }) }),
    }));
    expect(await processor.cancelAtPeriodEnd('sub_Test123', 'cancel-1')).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    const [cancel] = server.calls('POST', '/v1/subscriptions/sub_Test123');
    expect(cancel.form).toMatchObject({ cancel_at_period_end: 'true' });
    expect(cancel.headers['idempotency-key']).toBe('cancel-1');
    expect(await processor.resumeSubscription('sub_Test123')).toMatchObject({ cancelAtPeriodEnd: false });

    server.on('DELETE', '/v1/subscriptions/sub_Test123', { body: fx.subscription({ status: 'canceled', ended_at: fx.T0 + 10, canceled_at: fx.T0 + 10, cancellation_details: { reason: 'cancellation_requested' } }) });
    expect(await processor.cancelNow('sub_Test123')).toMatchObject({ status: 'canceled', endedAt: fx.T0 + 10, cancellationReason: 'cancellation_requested' });

    server.on('GET', '/v1/invoices', { body: fx.list([fx.invoice({ status: 'paid', amount_paid: 980, status_transitions: { paid_at: fx.T0 + 1 } })], '/v1/invoices') });
    expect(await processor.listInvoices('cus_Test123', { limit: 5 })).toEqual([
      {
        id: 'in_First',
        customerId: 'cus_Test123',
        subscriptionId: 'sub_Test123',
        status: 'paid',
        amountDueJpy: 980,
        amountPaidJpy: 980,
        billingReason: 'subscription_create',
        periodStart: fx.T0,
        periodEnd: fx.MONTH_END,
        created: fx.T0,
        paidAt: fx.T0 + 1,
        attemptCount: 0,
        nextPaymentAttempt: null,
        lastFailure: null,
      },
    ]);
    expect(server.calls('GET', '/v1/invoices')[0].query.get('customer')).toBe('cus_Test123');
  });

  it('maps Stripe errors to typed processor errors', async () => {
    server.on('GET', '/v1/subscriptions/sub_missing', fx.stripeError(404, { type: 'invalid_request_error', code: 'resource_missing' }));
    await expect(processor.getSubscription('sub_missing')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    server.on('GET', '/v1/customers/cus_x', fx.stripeError(401, { type: 'invalid_request_error' }));
    await expect(processor.getCustomer('cus_x')).rejects.toMatchObject({ code: 'authentication_failed' });
    server.on('POST', '/v1/customers/cus_y', fx.stripeError(400, { type: 'idempotency_error' }));
    await expect(processor.updateCustomerEmail('cus_y', 'a@example.com')).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  describe('webhooks (signed with generateTestHeaderString)', () => {
    const sign = (payload: string, timestamp?: number) => sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, ...(timestamp ? { timestamp } : {}) });

    it('verifies and maps subscription and invoice events', () => {
      const body = JSON.stringify(fx.event('customer.subscription.updated', fx.subscription({ status: 'past_due', latest_invoice: 'in_First' })));
      const result = processor.verifyWebhook({ rawBody: Buffer.from(body), signature: sign(body) });
      expect(result).toMatchObject({ ok: true, event: { id: 'evt_customersubscriptionupdated', type: 'customer.subscription.updated', created: fx.T0 + 5 } });
      if (result.ok && result.event.type === 'customer.subscription.updated') {
        expect(result.event.subscription).toMatchObject({ status: 'past_due', currentPeriodEnd: fx.MONTH_END, planId: 'standard', pendingAction: null });
      }
      const failed = JSON.stringify(fx.event('invoice.payment_failed', fx.invoice({ billing_reason: 'subscription_cycle', attempt_count: 1, next_payment_attempt: fx.T0 + 86_400 })));
      expect(processor.verifyWebhook({ rawBody: failed, signature: sign(failed) })).toMatchObject({
        ok: true,
        event: { type: 'invoice.payment_failed', invoice: { subscriptionId: 'sub_Test123', attemptCount: 1, nextPaymentAttempt: fx.T0 + 86_400 } },
      });
      const other = JSON.stringify(fx.event('charge.refunded', { id: 'ch_1', object: 'charge' }));
      expect(processor.verifyWebhook({ rawBody: other, signature: sign(other) })).toMatchObject({ ok: true, event: { type: 'other', originalType: 'charge.refunded' } });
    });

    it('reads the older API shapes an endpoint pinned to an earlier version sends', () => {
      const body = JSON.stringify(fx.event('customer.subscription.deleted', fx.legacySubscription({ status: 'canceled', cancellation_details: { reason: 'payment_failed' } })));
      const result = processor.verifyWebhook({ rawBody: body, signature: sign(body) });
      expect(result).toMatchObject({ ok: true, event: { subscription: { status: 'canceled', currentPeriodEnd: fx.MONTH_END, cancellationReason: 'payment_failed', latestInvoiceId: 'in_First' } } });
      const legacyInvoice = { ...fx.invoice(), parent: null, subscription: 'sub_Legacy' };
      const paid = JSON.stringify(fx.event('invoice.paid', legacyInvoice));
      expect(processor.verifyWebhook({ rawBody: paid, signature: sign(paid) })).toMatchObject({ ok: true, event: { invoice: { subscriptionId: 'sub_Legacy' } } });
    });

    it('refuses tampered, replayed, unsigned and wrongly signed events', () => {
      const body = JSON.stringify(fx.event('customer.subscription.updated', fx.subscription({ status: 'active' })));
      const header = sign(body);
      expect(processor.verifyWebhook({ rawBody: body.replace('"active"', '"canceled"'), signature: header })).toMatchObject({ ok: false, error: 'bad_signature' });
      expect(processor.verifyWebhook({ rawBody: body, signature: sign(body, Math.floor(Date.now() / 1000) - 3600) })).toMatchObject({ ok: false, error: 'timestamp_out_of_tolerance' });
      expect(processor.verifyWebhook({ rawBody: body, signature: undefined })).toMatchObject({ ok: false, error: 'missing_signature' });
      expect(processor.verifyWebhook({ rawBody: body, signature: 'garbage' })).toMatchObject({ ok: false, error: 'malformed_signature' });
      const otherSecret = sdk.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' });
      expect(processor.verifyWebhook({ rawBody: body, signature: otherSecret })).toMatchObject({ ok: false, error: 'bad_signature' });
    });
  });
});
