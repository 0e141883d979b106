/**
 * `PaymentProcessor` over HTTP to the sandbox process (server/payments/sandbox/main.ts): what
 * the api and the Firebase function use locally. Bearer secret key, Idempotency-Key on every
 * write that is given one, Stripe-shaped JSON in, our types out (client-mapping.ts). Webhooks
 * are verified with the shared Stripe-scheme verifier (../signature.ts). The test helpers
 * (clock, card behaviour, deliveries) are extra methods, not part of the interface.
 */
import type {
  CardSetupSession,
  CreateCardSetupInput,
  CreateSubscriptionInput,
  EnsureCustomerInput,
  PaymentMethodSummary,
  PaymentProcessor,
  ProcessorCustomer,
  ProcessorErrorCode,
  ProcessorInvoice,
  ProcessorSubscription,
  SubscriptionStart,
  VerifyWebhookInput,
  WebhookResult,
} from '../processor';
import { PaymentProcessorError } from '../processor';
import { verifySignature } from '../signature';
import { failureFrom, toCardSetup, toCustomer, toEvent, toInvoice, toPaymentMethod, toSubscription, toSubscriptionStart } from './client-mapping';
import type { WireCustomer, WireError, WireEvent, WireInvoice, WireList, WirePaymentMethod, WireSetupIntent, WireSubscription } from './wire';

export interface SandboxClientOptions {
  /** The sandbox's origin, e.g. http://127.0.0.1:8300 (PAYMENTS_SANDBOX_URL). */
  baseUrl: string;
  /** PAYMENTS_SANDBOX_SECRET_KEY */
  secretKey: string;
  /** PAYMENTS_WEBHOOK_SECRET */
  webhookSecret: string;
  /** Age limit of a webhook signature (default 300 s). */
  toleranceSeconds?: number;
  timeoutMs?: number;
}

export interface Delivery {
  event_id: string;
  type: string;
  url: string;
  attempts: number;
  delivered_at: string | null;
  failed_at: string | null;
  last_status: number | null;
  last_error: string | null;
}

function errorCode(status: number, error: WireError | undefined): ProcessorErrorCode {
  if (status === 401) return 'authentication_failed';
  if (status === 402 || error?.type === 'card_error') return 'card_error';
  if (status === 404) return 'not_found';
  if (status === 409 || error?.type === 'idempotency_error') return 'idempotency_conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'processor_unavailable';
  return 'invalid_request';
}

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox' as const;
  private readonly baseUrl: string;

  constructor(private readonly options: SandboxClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  private async request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.secretKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new PaymentProcessorError('processor_unavailable', `payments sandbox unreachable at ${this.baseUrl}: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new PaymentProcessorError('processor_unavailable', `payments sandbox answered ${response.status} with a body that is not JSON`, { status: response.status });
    }
    if (response.ok) return json as T;
    const error = (json as { error?: WireError } | null)?.error;
    const code = errorCode(response.status, error);
    throw new PaymentProcessorError(code, error?.message ?? `payments sandbox answered ${response.status}`, {
      status: response.status,
      failure: code === 'card_error' ? (failureFrom(error) ?? undefined) : undefined,
    });
  }

  // ── customers ──
  async ensureCustomer(input: EnsureCustomerInput): Promise<ProcessorCustomer> {
    let found: WireCustomer | null = null;
    if (input.customerId) {
      found = await this.request<WireCustomer>('GET', `/v1/customers/${encodeURIComponent(input.customerId)}`).catch((error) => {
        if (error instanceof PaymentProcessorError && error.code === 'not_found') return null;
        throw error;
      });
    }
    if (!found) {
      const existing = await this.request<WireList<WireCustomer>>('GET', `/v1/customers?uid=${encodeURIComponent(input.uid)}`);
      found = existing.data[0] ?? null;
    }
    if (!found) {
      const created = await this.request<WireCustomer>('POST', '/v1/customers', { email: input.email, metadata: { uid: input.uid } }, `customer:${input.uid}`);
      return toCustomer(created);
    }
    if (input.email && found.email !== input.email) return this.updateCustomerEmail(found.id, input.email);
    return toCustomer(found);
  }

  async getCustomer(customerId: string): Promise<ProcessorCustomer> {
    return toCustomer(await this.request<WireCustomer>('GET', `/v1/customers/${encodeURIComponent(customerId)}`));
  }

  async updateCustomerEmail(customerId: string, email: string): Promise<ProcessorCustomer> {
    return toCustomer(await this.request<WireCustomer>('POST', `/v1/customers/${encodeURIComponent(customerId)}`, { email }));
  }

  // ── cards ──
  async createCardSetup(input: CreateCardSetupInput): Promise<CardSetupSession> {
    const body = { customer: input.customerId, origin: input.webOrigin, ...(input.returnUrl ? { return_url: input.returnUrl } : {}) };
    return toCardSetup(await this.request<WireSetupIntent>('POST', '/v1/setup_intents', body, input.idempotencyKey));
  }

  async getCardSetup(setupId: string): Promise<CardSetupSession> {
    return toCardSetup(await this.request<WireSetupIntent>('GET', `/v1/setup_intents/${encodeURIComponent(setupId)}`));
  }

  async getPaymentMethod(paymentMethodId: string): Promise<PaymentMethodSummary> {
    return toPaymentMethod(await this.request<WirePaymentMethod>('GET', `/v1/payment_methods/${encodeURIComponent(paymentMethodId)}`));
  }

  async listPaymentMethods(customerId: string): Promise<PaymentMethodSummary[]> {
    const list = await this.request<WireList<WirePaymentMethod>>('GET', `/v1/payment_methods?customer=${encodeURIComponent(customerId)}`);
    return list.data.map(toPaymentMethod);
  }

  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string, subscriptionId?: string): Promise<void> {
    await this.request('POST', `/v1/customers/${encodeURIComponent(customerId)}`, { invoice_settings: { default_payment_method: paymentMethodId } });
    if (subscriptionId) {
      await this.request('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, { default_payment_method: paymentMethodId });
    }
  }

  // ── subscriptions ──
  async createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionStart> {
    const { plan } = input;
    const body = {
      customer: input.customerId,
      default_payment_method: input.paymentMethodId,
      plan: { id: plan.planId, ...(plan.name ? { name: plan.name } : {}), amount: plan.amountJpy, currency: 'jpy', interval: plan.interval, interval_count: plan.intervalCount },
      metadata: input.metadata ?? {},
      origin: input.webOrigin,
      ...(input.returnUrl ? { return_url: input.returnUrl } : {}),
    };
    return toSubscriptionStart(await this.request<WireSubscription>('POST', '/v1/subscriptions', body, input.idempotencyKey));
  }

  async getSubscription(subscriptionId: string): Promise<ProcessorSubscription> {
    return toSubscription(await this.request<WireSubscription>('GET', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`));
  }

  async listSubscriptions(customerId: string): Promise<ProcessorSubscription[]> {
    const list = await this.request<WireList<WireSubscription>>('GET', `/v1/subscriptions?customer=${encodeURIComponent(customerId)}`);
    return list.data.map(toSubscription);
  }

  async cancelAtPeriodEnd(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return toSubscription(await this.request<WireSubscription>('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, { cancel_at_period_end: true }, idempotencyKey));
  }

  async resumeSubscription(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return toSubscription(await this.request<WireSubscription>('POST', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, { cancel_at_period_end: false }, idempotencyKey));
  }

  async cancelNow(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription> {
    return toSubscription(await this.request<WireSubscription>('DELETE', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`, undefined, idempotencyKey));
  }

  async listInvoices(customerId: string, options: { limit?: number } = {}): Promise<ProcessorInvoice[]> {
    const limit = options.limit ?? 24;
    const list = await this.request<WireList<WireInvoice>>('GET', `/v1/invoices?customer=${encodeURIComponent(customerId)}&limit=${limit}`);
    return list.data.map(toInvoice);
  }

  // ── webhooks ──
  verifyWebhook(input: VerifyWebhookInput): WebhookResult {
    const check = verifySignature(input.rawBody, input.signature, this.options.webhookSecret, { toleranceSeconds: this.options.toleranceSeconds });
    if (!check.ok) return { ok: false, error: check.error, message: check.message };
    try {
      const text = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
      return { ok: true, event: toEvent(JSON.parse(text) as WireEvent) };
    } catch (error) {
      return { ok: false, error: 'malformed_payload', message: `signed body is not an event: ${(error as Error).message}` };
    }
  }

  // ── test helpers (sandbox only) ──
  /** Moves the sandbox clock forward and runs what falls due; returns the new sandbox time. */
  async advanceClock(seconds: number): Promise<{ now: number; ran: number }> {
    return this.request('POST', '/v1/test_helpers/clock/advance', { seconds });
  }

  async clock(): Promise<{ now: number; offset_seconds: number }> {
    return this.request('GET', '/v1/test_helpers/clock');
  }

  /** Makes a saved card decline (or succeed) from now on: a renewal failure without a new card. */
  async setCardBehaviour(paymentMethodId: string, behaviour: 'succeed' | 'decline' | 'require_3ds'): Promise<void> {
    await this.request('POST', `/v1/test_helpers/payment_methods/${encodeURIComponent(paymentMethodId)}`, { behaviour });
  }

  async deliveries(eventId?: string): Promise<Delivery[]> {
    const query = eventId ? `?event=${encodeURIComponent(eventId)}` : '';
    return (await this.request<WireList<Delivery>>('GET', `/v1/test_helpers/deliveries${query}`)).data;
  }

  async events(options: { type?: string; limit?: number } = {}): Promise<WireEvent[]> {
    const params = new URLSearchParams({ limit: String(options.limit ?? 100), ...(options.type ? { type: options.type } : {}) });
    return (await this.request<WireList<WireEvent>>('GET', `/v1/events?${params}`)).data;
  }
}
