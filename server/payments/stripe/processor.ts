/**
 * `PaymentProcessor` on Stripe, with the official `stripe` SDK (production). The card is saved
 * with a SetupIntent that the web page completes in Stripe's Payment Element (card data goes
 * from the browser to Stripe only); the subscription is created with
 * `payment_behavior: 'default_incomplete'` and the first invoice is then paid server-side with
 * the saved card: paid → active; Stripe asks for 3-D Secure → `requires_action` with the
 * invoice's confirmation secret for Stripe.js; declined → `declined` with our Japanese message.
 * Every write carries an idempotency key. Webhooks are verified with `webhooks.constructEvent`.
 * It cannot reach Stripe from the development machine: stripe.int.test.ts drives it against a
 * recorded-response server; docs/payments-processor.md lists what a first live run must check.
 */
import Stripe from 'stripe';
import { failure } from '../failures';
import type {
  CardSetupSession,
  CreateCardSetupInput,
  CreateSubscriptionInput,
  EnsureCustomerInput,
  PaymentMethodSummary,
  PaymentProcessor,
  PlanPrice,
  ProcessorCustomer,
  ProcessorEvent,
  ProcessorInvoice,
  ProcessorSubscription,
  SubscriptionStart,
  VerifyWebhookInput,
  WebhookResult,
} from '../processor';
import { PaymentProcessorError } from '../processor';
import type { StripeConfig } from './config';
import { toCardSetup, toCustomer, toInvoice, toPaymentMethod, toSubscription, type PlanLookup } from './mapping';

const EXPAND_INVOICE = ['latest_invoice.confirmation_secret'];

/** Any SDK error → PaymentProcessorError (card errors keep a Japanese PaymentFailure). */
export function mapStripeError(error: unknown): PaymentProcessorError {
  if (error instanceof PaymentProcessorError) return error;
  if (!(error instanceof Stripe.errors.StripeError)) {
    return new PaymentProcessorError('processor_unavailable', (error as Error)?.message ?? String(error), { cause: error });
  }
  const status = error.statusCode;
  const details = { status, cause: error };
  switch (error.type) {
    case 'StripeCardError':
      return new PaymentProcessorError('card_error', error.message, { ...details, failure: failure(error.code ?? 'card_declined', error.decline_code) });
    case 'StripeIdempotencyError':
      return new PaymentProcessorError('idempotency_conflict', error.message, details);
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentProcessorError('authentication_failed', error.message, details);
    case 'StripeRateLimitError':
      return new PaymentProcessorError('rate_limited', error.message, details);
    case 'StripeConnectionError':
    case 'StripeAPIError':
      return new PaymentProcessorError('processor_unavailable', error.message, details);
    default:
      return new PaymentProcessorError(status === 404 || error.code === 'resource_missing' ? 'not_found' : 'invalid_request', error.message, details);
  }
}

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;
  private readonly plans: PlanLookup;
  private readonly checkedPrices = new Map<string, Promise<void>>();

  constructor(private readonly config: StripeConfig) {
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Yumecast' },
      ...(config.api ?? {}),
    });
    const planByPrice = new Map(Object.entries(config.priceIds).map(([plan, price]) => [price, plan]));
    this.plans = { planForPrice: (price) => planByPrice.get(price) ?? null, publishableKey: config.publishableKey };
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw mapStripeError(error);
    }
  }

  // ── customers ──
  async ensureCustomer(input: EnsureCustomerInput): Promise<ProcessorCustomer> {
    return this.call(async () => {
      let customer: Stripe.Customer | null = null;
      if (input.customerId) {
        const found = await this.stripe.customers.retrieve(input.customerId).catch((error) => {
          if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return null;
          throw error;
        });
        customer = found && !found.deleted ? found : null;
      }
      if (!customer) {
        // Search lags behind writes (about a minute): the api stores the id and passes it back.
        const uid = input.uid.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
        const found = await this.stripe.customers.search({ query: `metadata['uid']:'${uid}'`, limit: 1 });
        customer = found.data[0] ?? null;
      }
      if (!customer) {
        customer = await this.stripe.customers.create(
          { ...(input.email ? { email: input.email } : {}), metadata: { uid: input.uid } },
          { idempotencyKey: `customer-create:${input.uid}` },
        );
      } else if (input.email && customer.email !== input.email) {
        customer = await this.stripe.customers.update(customer.id, { email: input.email });
      }
      return toCustomer(customer);
    });
  }

  async getCustomer(customerId: string): Promise<ProcessorCustomer> {
    return this.call(async () => {
      const customer = await this.stripe.customers.retrieve(customerId);
      if (customer.deleted) throw new PaymentProcessorError('not_found', `customer ${customerId} was deleted`, { status: 404 });
      return toCustomer(customer);
    });
  }

  async updateCustomerEmail(customerId: string, email: string): Promise<ProcessorCustomer> {
    return this.call(async () => toCustomer(await this.stripe.customers.update(customerId, { email })));
  }

  // ── cards ──
  async createCardSetup(input: CreateCardSetupInput): Promise<CardSetupSession> {
    return this.call(async () => {
      const intent = await this.stripe.setupIntents.create(
        { customer: input.customerId, allowed_payment_method_types: ['card'], usage: 'off_session' },
        input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : undefined,
      );
      return toCardSetup(intent, this.config.publishableKey);
    });
  }

  async getCardSetup(setupId: string): Promise<CardSetupSession> {
    return this.call(async () => toCardSetup(await this.stripe.setupIntents.retrieve(setupId), this.config.publishableKey));
  }

  async getPaymentMethod(paymentMethodId: string): Promise<PaymentMethodSummary> {
    return this.call(async () => toPaymentMethod(await this.stripe.paymentMethods.retrieve(paymentMethodId)));
  }

  async listPaymentMethods(customerId: string): Promise<PaymentMethodSummary[]> {
    return this.call(async () => (await this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 20 })).data.map(toPaymentMethod));
  }

  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string, subscriptionId?: string): Promise<void> {
    await this.call(async () => {
      await this.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } });
      if (subscriptionId) await this.stripe.subscriptions.update(subscriptionId, { default_payment_method: paymentMethodId });
    });
  }

  // ── subscriptions ──
  /** The Price we charge must say what our plan says (amount, JPY, interval): checked once per price. */
  private checkPrice(priceId: string, plan: PlanPrice): Promise<void> {
    let check = this.checkedPrices.get(priceId);
    if (!check) {
      check = this.call(async () => {
        const price = await this.stripe.prices.retrieve(priceId);
        const recurring = price.recurring;
        if (
          price.currency !== 'jpy' ||
          price.unit_amount !== plan.amountJpy ||
          recurring?.interval !== plan.interval ||
          recurring.interval_count !== plan.intervalCount
        ) {
          throw new PaymentProcessorError(
            'configuration',
            `Stripe price ${priceId} (${price.unit_amount} ${price.currency} / ${recurring?.interval_count} ${recurring?.interval}) ` +
              `does not match plan ${plan.planId} (${plan.amountJpy} jpy / ${plan.intervalCount} ${plan.interval})`,
          );
        }
      });
      check.catch(() => this.checkedPrices.delete(priceId));
      this.checkedPrices.set(priceId, check);
    }
    return check;
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionStart> {
    const priceId = this.config.priceIds[input.plan.planId];
    if (!priceId) throw new PaymentProcessorError('configuration', `no Stripe price for plan "${input.plan.planId}" (STRIPE_PRICE_IDS)`);
    await this.checkPrice(priceId, input.plan);
    return this.call(async () => {
      const created = await this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          items: [{ price: priceId }],
          default_payment_method: input.paymentMethodId,
          payment_behavior: 'default_incomplete',
          payment_settings: { payment_method_types: ['card'], save_default_payment_method: 'on_subscription' },
          metadata: { plan: input.plan.planId, ...(input.metadata ?? {}) },
          expand: EXPAND_INVOICE,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const invoice = created.latest_invoice;
      if (created.status !== 'incomplete' || !invoice || typeof invoice === 'string' || invoice.status !== 'open' || !invoice.id) {
        const subscription = toSubscription(created, this.plans);
        return { subscription, outcome: created.status === 'active' ? 'active' : 'declined', action: null, failure: created.status === 'active' ? null : failure('card_declined') };
      }
      try {
        // Same key + suffix: a retried request replays the first payment attempt's answer.
        await this.stripe.invoices.pay(invoice.id, { payment_method: input.paymentMethodId }, { idempotencyKey: `${input.idempotencyKey}:pay` });
      } catch (error) {
        const stripeError = error instanceof Stripe.errors.StripeError ? error : null;
        const code = stripeError?.code ?? '';
        const current = await this.stripe.subscriptions.retrieve(created.id, { expand: EXPAND_INVOICE });
        const subscription = toSubscription(current, this.plans);
        if (code === 'invoice_payment_intent_requires_action' || code === 'authentication_required') {
          const action = subscription.pendingAction;
          if (action) return { subscription, outcome: 'requires_action', action, failure: null };
        }
        if (stripeError?.type === 'StripeCardError' || code === 'invoice_payment_intent_requires_action') {
          return { subscription, outcome: 'declined', action: null, failure: failure(code || 'card_declined', stripeError?.decline_code) };
        }
        throw error;
      }
      const current = await this.stripe.subscriptions.retrieve(created.id, { expand: EXPAND_INVOICE });
      const subscription = toSubscription(current, this.plans);
      if (current.status === 'active') return { subscription, outcome: 'active', action: null, failure: null };
      if (subscription.pendingAction) return { subscription, outcome: 'requires_action', action: subscription.pendingAction, failure: null };
      return { subscription, outcome: 'declined', action: null, failure: failure('card_declined') };
    });
  }

  async getSubscription(subscriptionId: string): Promise<ProcessorSubscription> {
    return this.call(async () => toSubscription(await this.stripe.subscriptions.retrieve(subscriptionId, { expand: EXPAND_INVOICE }), this.plans));
  }

  async listSubscriptions(customerId: string): Promise<ProcessorSubscription[]> {
    return this.call(async () => {
      const list = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 20, expand: ['data.latest_invoice.confirmation_secret'] });
      return list.data.map((subscription) => toSubscription(subscription, this.plans));
    });
  }

  async cancelAtPeriodEnd(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return this.update(subscriptionId, { cancel_at_period_end: true }, idempotencyKey);
  }

  async resumeSubscription(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return this.update(subscriptionId, { cancel_at_period_end: false }, idempotencyKey);
  }

  private update(subscriptionId: string, params: Stripe.SubscriptionUpdateParams, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return this.call(async () =>
      toSubscription(
        await this.stripe.subscriptions.update(subscriptionId, { ...params, expand: EXPAND_INVOICE }, idempotencyKey ? { idempotencyKey } : undefined),
        this.plans,
      ),
    );
  }

  async cancelNow(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return this.call(async () =>
      toSubscription(await this.stripe.subscriptions.cancel(subscriptionId, {}, idempotencyKey ? { idempotencyKey } : undefined), this.plans),
    );
  }

  async listInvoices(customerId: string, options: { limit?: number } = {}): Promise<ProcessorInvoice[]> {
    return this.call(async () => (await this.stripe.invoices.list({ customer: customerId, limit: options.limit ?? 24 })).data.map(toInvoice));
  }

  // ── webhooks ──
  verifyWebhook(input: VerifyWebhookInput): WebhookResult {
    const header = input.signature;
    if (header === undefined || header === '' || (Array.isArray(header) && header.length === 0)) {
      return { ok: false, error: 'missing_signature', message: 'no Stripe-Signature header' };
    }
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(input.rawBody, header, this.config.webhookSecret, this.config.toleranceSeconds);
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (/tolerance/i.test(message)) return { ok: false, error: 'timestamp_out_of_tolerance', message };
      if (/No signatures found matching/i.test(message)) return { ok: false, error: 'bad_signature', message };
      if (error instanceof SyntaxError) return { ok: false, error: 'malformed_payload', message };
      return { ok: false, error: 'malformed_signature', message };
    }
    try {
      return { ok: true, event: this.toEvent(event) };
    } catch (error) {
      return { ok: false, error: 'malformed_payload', message: (error as Error).message };
    }
  }

  private toEvent(event: Stripe.Event): ProcessorEvent {
    const base = { id: event.id, created: event.created };
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return { ...base, type: event.type, subscription: toSubscription(event.data.object, this.plans) };
      case 'invoice.paid':
      case 'invoice.payment_failed':
        return { ...base, type: event.type, invoice: toInvoice(event.data.object) };
      default:
        return { ...base, type: 'other', originalType: event.type };
    }
  }
}
