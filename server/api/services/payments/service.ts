/**
 * SubscriptionService: the one object routes call for plans, subscriptions, purchases, webhooks
 * and the function's payment requests (`app.subscriptions`, plugins/payments.ts). PostgreSQL is
 * the record (repository.ts); the processor is reached only through the `PaymentProcessor`
 * interface (server/payments, `createProcessor(env)`); the paymentExpirationTime claim follows
 * every change (sync.ts). `entitlements(uid)` / `isActiveSubscriber(uid)` are the server-side
 * checks behind the benefits (entitlements.ts has the same as plain functions over a client).
 */
import type { Auth } from 'firebase-admin/auth';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type {
  CardSetupAnswer,
  PaymentRequestBody,
  PaymentRequestResult,
  PlanWire,
  PurchaseAnswer,
  PurchaseSummaryAnswer,
  SubscribeBody,
  SubscriptionWire,
} from '../../../../lib/api-types/schemas/payments';
import type { PaymentProcessor } from '../../../payments';
import type { PaymentsConfig } from './config';
import { ensureCustomer } from './customers';
import { entitlements, isActiveSubscriber, type Entitlements } from './entitlements';
import { viaProcessor } from './errors';
import { withUserLock } from './locks';
import { PurchaseFlows, type Payer } from './purchase';
import * as repo from './repository';
import { handlePaymentRequest } from './requests';
import { SubscriptionSync } from './sync';
import { handleWebhook, type WebhookOutcome } from './webhooks';
import { cardWire, invoiceWire, mountWire, planWire, subscriptionWire } from './wire';

export type { Payer } from './purchase';
export type { Entitlements } from './entitlements';

export interface SubscriptionServiceDeps {
  db: pg.Pool;
  processor: PaymentProcessor;
  /** firebase-admin Auth: sets the paymentExpirationTime claim. */
  auth: Auth;
  config: PaymentsConfig;
  /** WEB_ORIGIN: a request's Origin on this list is where the processor's pages post to. */
  webOrigins: string[];
  log: FastifyBaseLogger;
}

/** How many bills /v1/purchase/summary shows. */
const HISTORY_LIMIT = 24;

export class SubscriptionService {
  readonly processor: PaymentProcessor;
  private readonly sync: SubscriptionSync;
  private readonly purchase: PurchaseFlows;

  constructor(private readonly deps: SubscriptionServiceDeps) {
    this.processor = deps.processor;
    this.sync = new SubscriptionSync({ processor: deps.processor, auth: deps.auth, graceSeconds: deps.config.graceSeconds, log: deps.log });
    this.purchase = new PurchaseFlows({ db: deps.db, processor: deps.processor, sync: this.sync });
  }

  // ── entitlements (read by the session start and other benefit checks) ─────────────────

  /** What the user's subscription grants now, from our database. */
  entitlements(uid: string): Promise<Entitlements> {
    return entitlements(this.deps.db, uid);
  }

  /** True while the user has an active subscription (or a past_due one within the grace period). */
  isActiveSubscriber(uid: string): Promise<boolean> {
    return isActiveSubscriber(this.deps.db, uid);
  }

  // ── reads ──────────────────────────────────────────────────────────────────────────────

  async plans(): Promise<PlanWire[]> {
    return (await repo.activePlans(this.deps.db)).map(planWire);
  }

  /** The caller's started subscriptions, newest first (GET /api/subscriptions). */
  async subscriptions(uid: string): Promise<SubscriptionWire[]> {
    return (await repo.startedSubscriptions(this.deps.db, uid)).map(subscriptionWire);
  }

  async summary(uid: string): Promise<Omit<PurchaseSummaryAnswer, 'status'>> {
    const [rows, granted, customer] = await Promise.all([
      repo.startedSubscriptions(this.deps.db, uid),
      entitlements(this.deps.db, uid),
      repo.customerOf(this.deps.db, uid),
    ]);
    const latest = rows[0] ?? null;
    const customerId = customer?.processor === this.processor.name ? customer.customer_id : null;
    const invoices = customerId ? await viaProcessor(() => this.processor.listInvoices(customerId, { limit: HISTORY_LIMIT })) : [];
    return {
      entitled: granted.subscriber,
      access_until: granted.until,
      subscription: latest ? subscriptionWire(latest) : null,
      card: latest ? cardWire(latest) : null,
      invoices: invoices.map(invoiceWire),
    };
  }

  // ── purchase ───────────────────────────────────────────────────────────────────────────

  /** Origin the processor's pages post to: the request's, when it is one of ours. */
  webOriginFor(requestOrigin: string | undefined): string {
    return requestOrigin && this.deps.webOrigins.includes(requestOrigin) ? requestOrigin : this.deps.config.webOrigin;
  }

  /** Starts the processor's card form for the caller (customer created when missing). */
  async cardSetup(payer: Payer, requestOrigin: string | undefined): Promise<Omit<CardSetupAnswer, 'status'>> {
    const webOrigin = this.webOriginFor(requestOrigin);
    return withUserLock(this.deps.db, payer.uid, async (client) => {
      const { customerId } = await ensureCustomer(client, this.processor, { uid: payer.uid, email: payer.email, updateEmail: false });
      const setup = await viaProcessor(() => this.processor.createCardSetup({ customerId, webOrigin }));
      return { setup_id: setup.id, mount: mountWire(setup.mount) };
    });
  }

  subscribe(payer: Payer, body: SubscribeBody, requestOrigin: string | undefined): Promise<Omit<PurchaseAnswer, 'status'>> {
    return this.purchase.subscribe(payer, body, this.webOriginFor(requestOrigin));
  }

  confirm(uid: string, subscriptionId: string): Promise<Omit<PurchaseAnswer, 'status'>> {
    return this.purchase.confirm(uid, subscriptionId);
  }

  async cancel(uid: string): Promise<SubscriptionWire> {
    return subscriptionWire(await this.purchase.cancel(uid));
  }

  async resume(uid: string): Promise<SubscriptionWire> {
    return subscriptionWire(await this.purchase.resume(uid));
  }

  async changeCard(payer: Payer, setupId: string): Promise<SubscriptionWire> {
    return subscriptionWire(await this.purchase.changeCard(payer, setupId));
  }

  // ── the processor and the function ─────────────────────────────────────────────────────

  handleWebhook(rawBody: Buffer, signature: string | string[] | undefined): Promise<WebhookOutcome> {
    return handleWebhook({ db: this.deps.db, processor: this.processor, sync: this.sync, log: this.deps.log }, rawBody, signature);
  }

  paymentRequest(body: PaymentRequestBody): Promise<PaymentRequestResult> {
    return handlePaymentRequest(this.deps.db, this.processor, body);
  }
}
