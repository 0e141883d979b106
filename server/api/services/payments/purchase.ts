/**
 * The purchase flows of a verified user (docs/purchase.md "Routes"): subscribe with a saved card
 * (amount and plan from our plans table; the idempotency key makes a double click charge once),
 * confirm after 3-D Secure, cancel at period end, resume, change the card. Each runs under the
 * user's lock (locks.ts), records what the processor answered (sync.ts) and then sets the claim.
 */
import type pg from 'pg';
import type { PurchaseAnswer, SubscribeBody } from '../../../../lib/api-types/schemas/payments';
import type { PaymentProcessor, ProcessorSubscription } from '../../../payments';
import { ApiError } from '../../errors';
import { ensureCustomer, savedCard } from './customers';
import { viaProcessor } from './errors';
import { withUserLock } from './locks';
import * as repo from './repository';
import type { SubscriptionSync } from './sync';
import { actionWire, planPrice, subscriptionWire } from './wire';

/** The verified caller as the purchase flows need it. */
export interface Payer {
  uid: string;
  email: string | null;
}

export interface PurchaseDeps {
  db: pg.Pool;
  processor: PaymentProcessor;
  sync: SubscriptionSync;
}

type PurchaseResult = Omit<PurchaseAnswer, 'status'>;

const NOT_SAVED = new Error('the processor subscription was not recorded (unknown plan)');

export class PurchaseFlows {
  constructor(private readonly deps: PurchaseDeps) {}

  private lock<T>(uid: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withUserLock(this.deps.db, uid, fn);
  }

  async subscribe(payer: Payer, body: SubscribeBody, webOrigin: string): Promise<PurchaseResult> {
    const key = body.idempotencyKey.toLowerCase();
    return this.lock(payer.uid, async (client) => {
      const attempt = await repo.attemptByKey(client, key);
      if (attempt && (attempt.uid !== payer.uid || attempt.plan_id !== body.planId || attempt.setup_id !== body.setupId)) {
        throw new ApiError('idempotency_conflict');
      }
      // The same press again (a double click, a retry after a lost answer): the first result.
      if (attempt?.outcome && attempt.subscription_id) return this.replay(client, payer.uid, attempt);

      const plan = await repo.planById(client, body.planId);
      if (!plan?.active) throw new ApiError('plan_not_found');
      if (await repo.liveSubscription(client, payer.uid)) throw new ApiError('already_subscribed');
      const { customerId } = await ensureCustomer(client, this.deps.processor, { uid: payer.uid, email: payer.email, updateEmail: false });
      const paymentMethodId = await savedCard(this.deps.processor, body.setupId, customerId);
      if (!attempt && !(await repo.insertAttempt(client, { key, uid: payer.uid, planId: plan.id, setupId: body.setupId }))) {
        throw new ApiError('idempotency_conflict');
      }
      // A start left waiting (3-D Secure abandoned, a declined card) must not complete later
      // beside this one: end it first.
      await this.endUnstarted(client, payer.uid);

      const start = await viaProcessor(() =>
        this.deps.processor.createSubscription({
          customerId,
          plan: planPrice(plan),
          paymentMethodId,
          idempotencyKey: `subscribe:${key}`,
          webOrigin,
          metadata: { uid: payer.uid, planId: plan.id },
        }),
      );
      const row = await this.deps.sync.apply(client, payer.uid, start.subscription, plan.id);
      if (!row) throw new ApiError('internal', undefined, { cause: NOT_SAVED });
      await repo.finishAttempt(client, key, row.id, start.outcome, start.failure?.message ?? null);
      await this.deps.sync.syncClaim(client, payer.uid);
      if (start.outcome === 'declined') throw new ApiError('card_declined', start.failure?.message);
      return {
        result: start.outcome,
        subscription: subscriptionWire(row),
        action: start.outcome === 'requires_action' && start.action ? actionWire(start.action) : null,
      };
    });
  }

  /** After the 3-D Secure page: the subscription as the processor has it now. */
  async confirm(uid: string, subscriptionId: string): Promise<PurchaseResult> {
    return this.lock(uid, async (client) => {
      const row = await repo.subscriptionOf(client, uid, subscriptionId.toLowerCase());
      if (!row) throw new ApiError('subscription_not_found');
      return this.answerFresh(client, uid, row.processor_subscription_id);
    });
  }

  async cancel(uid: string): Promise<repo.SubscriptionRow> {
    return this.lock(uid, async (client) => {
      const live = await repo.liveSubscription(client, uid);
      if (!live) throw new ApiError('subscription_inactive');
      const sub = await viaProcessor(() => this.deps.processor.cancelAtPeriodEnd(live.processor_subscription_id));
      return this.record(client, uid, sub);
    });
  }

  async resume(uid: string): Promise<repo.SubscriptionRow> {
    return this.lock(uid, async (client) => {
      const live = await repo.liveSubscription(client, uid);
      if (!live) throw new ApiError('subscription_inactive');
      if (!live.cancel_at_period_end) return live;
      const sub = await viaProcessor(() => this.deps.processor.resumeSubscription(live.processor_subscription_id));
      return this.record(client, uid, sub);
    });
  }

  /** Makes the card saved by `setupId` the one the running subscription renews with. */
  async changeCard(payer: Payer, setupId: string): Promise<repo.SubscriptionRow> {
    return this.lock(payer.uid, async (client) => {
      const live = await repo.liveSubscription(client, payer.uid);
      if (!live) throw new ApiError('subscription_inactive');
      const { customerId } = await ensureCustomer(client, this.deps.processor, { uid: payer.uid, email: payer.email, updateEmail: false });
      const paymentMethodId = await savedCard(this.deps.processor, setupId, customerId);
      await viaProcessor(() => this.deps.processor.setDefaultPaymentMethod(customerId, paymentMethodId, live.processor_subscription_id));
      const sub = await viaProcessor(() => this.deps.processor.getSubscription(live.processor_subscription_id));
      return this.record(client, payer.uid, sub);
    });
  }

  private async record(client: pg.PoolClient, uid: string, sub: ProcessorSubscription): Promise<repo.SubscriptionRow> {
    const row = await this.deps.sync.apply(client, uid, sub);
    if (!row) throw new ApiError('internal', undefined, { cause: NOT_SAVED });
    await this.deps.sync.syncClaim(client, uid);
    return row;
  }

  private async replay(client: pg.PoolClient, uid: string, attempt: repo.AttemptRow): Promise<PurchaseResult> {
    if (attempt.outcome === 'declined') throw new ApiError('card_declined', attempt.failure_message ?? undefined);
    const row = attempt.subscription_id ? await repo.subscriptionOf(client, uid, attempt.subscription_id) : null;
    if (!row) throw new ApiError('subscription_not_found');
    return this.answerFresh(client, uid, row.processor_subscription_id);
  }

  /** Reads the subscription from the processor, records it, answers as subscribe does. */
  private async answerFresh(client: pg.PoolClient, uid: string, processorSubscriptionId: string): Promise<PurchaseResult> {
    const sub = await viaProcessor(() => this.deps.processor.getSubscription(processorSubscriptionId));
    const row = await this.record(client, uid, sub);
    if (repo.LIVE_STATUSES.includes(row.status)) return { result: 'active', subscription: subscriptionWire(row), action: null };
    if (row.status === 'incomplete' && sub.pendingAction) {
      return { result: 'requires_action', subscription: subscriptionWire(row), action: actionWire(sub.pendingAction) };
    }
    if (row.status === 'incomplete') throw new ApiError('payment_failed', await this.failureMessage(sub));
    throw new ApiError('subscription_inactive');
  }

  /** The Japanese reason the first payment was refused (its invoice's last failure). */
  private async failureMessage(sub: ProcessorSubscription): Promise<string | undefined> {
    const invoices = await viaProcessor(() => this.deps.processor.listInvoices(sub.customerId, { limit: 10 }));
    const invoice = invoices.find((candidate) => candidate.id === sub.latestInvoiceId) ?? invoices.find((candidate) => candidate.subscriptionId === sub.id);
    return invoice?.lastFailure?.message;
  }

  private async endUnstarted(client: pg.PoolClient, uid: string): Promise<void> {
    for (const row of await repo.incompleteSubscriptions(client, uid)) {
      const sub = await viaProcessor(() => this.deps.processor.cancelNow(row.processor_subscription_id));
      await this.deps.sync.apply(client, uid, sub);
    }
  }
}
