/**
 * Keeps our records and the paymentExpirationTime claim in step with the processor. Called under
 * the user's lock (locks.ts) with what the processor just answered (a create, cancel, resume) or
 * with a fresh read of it (a webhook, a confirm): our row is always the processor's latest state,
 * never an event's payload, so replayed, late or reordered webhooks cannot roll it back.
 *
 * The claim (server/api/auth/payment-claim.ts) follows our rows after every change: the latest
 * end among the user's entitling subscriptions (rules.ts); when none entitles any more, a claim
 * still in the future is set to now (the moment we processed the end, on our clock; never the
 * processor's ended_at, which the sandbox's test clock may put in our future).
 */
import type { Auth } from 'firebase-admin/auth';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentProcessor, ProcessorSubscription } from '../../../payments';
import { getPaymentExpirationTime, setPaymentExpirationTime } from '../../auth/payment-claim';
import { ApiError } from '../../errors';
import * as repo from './repository';
import { fromUnix, grantOf, unixSeconds } from './rules';

export interface SyncDeps {
  processor: PaymentProcessor;
  auth: Auth;
  graceSeconds: number;
  log: FastifyBaseLogger;
}

export class SubscriptionSync {
  constructor(private readonly deps: SyncDeps) {}

  /**
   * Stores `sub` for `uid` (brand, last 4 and expiry of its card read from the processor when
   * the card changed). Null when its plan is not one of ours (nothing is stored then).
   */
  async apply(db: repo.Queryable, uid: string, sub: ProcessorSubscription, fallbackPlanId?: string): Promise<repo.SubscriptionRow | null> {
    const stored = await repo.subscriptionByProcessorId(db, sub.id);
    if (stored && stored.uid !== uid) throw new Error(`subscription ${sub.id} belongs to another user`);
    const planId = sub.planId ?? stored?.plan_id ?? fallbackPlanId ?? null;
    const plan = planId ? await repo.planById(db, planId) : null;
    if (!plan) {
      this.deps.log.warn({ subscription: sub.id, planId }, 'processor subscription with a plan we do not have: not stored');
      return null;
    }
    const grant = grantOf({
      status: sub.status,
      currentPeriodEnd: fromUnix(sub.currentPeriodEnd),
      storedGraceUntil: stored?.grace_until ?? null,
      previousStatus: stored?.status ?? null,
      graceSeconds: this.deps.graceSeconds,
      now: new Date(),
    });
    await repo.ensureUser(db, uid);
    const row = await repo.saveSubscription(db, {
      uid,
      processor: this.deps.processor.name,
      processorSubscriptionId: sub.id,
      processorCustomerId: sub.customerId,
      planId: plan.id,
      status: sub.status,
      amountJpy: sub.amountJpy,
      currentPeriodStart: fromUnix(sub.currentPeriodStart),
      currentPeriodEnd: fromUnix(sub.currentPeriodEnd),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      cancellationReason: sub.cancellationReason,
      created: fromUnix(sub.created),
      canceledAt: sub.canceledAt === null ? null : fromUnix(sub.canceledAt),
      endedAt: sub.endedAt === null ? null : fromUnix(sub.endedAt),
      graceUntil: grant.graceUntil,
      entitledUntil: grant.entitledUntil,
      defaultPaymentMethodId: sub.defaultPaymentMethodId,
      card: await this.cardOf(sub.defaultPaymentMethodId, stored),
    });
    if (!stored || stored.status !== row.status || stored.cancel_at_period_end !== row.cancel_at_period_end) {
      this.deps.log.info({ uid, subscription: row.id, from: stored?.status ?? null, to: row.status, cancelAtPeriodEnd: row.cancel_at_period_end }, 'subscription recorded');
    }
    return row;
  }

  /** Reads the subscription from the processor now and stores it (webhooks, confirm, replays). */
  async refresh(db: repo.Queryable, uid: string, processorSubscriptionId: string): Promise<{ row: repo.SubscriptionRow | null; sub: ProcessorSubscription }> {
    const sub = await this.deps.processor.getSubscription(processorSubscriptionId);
    return { row: await this.apply(db, uid, sub), sub };
  }

  private async cardOf(paymentMethodId: string | null, stored: repo.SubscriptionRow | null): Promise<repo.SubscriptionWrite['card']> {
    if (!paymentMethodId) return null;
    if (stored && stored.default_payment_method_id === paymentMethodId && stored.card_brand && stored.card_last4) {
      return { brand: stored.card_brand, last4: stored.card_last4, expMonth: stored.card_exp_month ?? 0, expYear: stored.card_exp_year ?? 0 };
    }
    const card = await this.deps.processor.getPaymentMethod(paymentMethodId);
    return { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }

  /**
   * Sets the user's paymentExpirationTime from our rows (see the header). Answers the claim now
   * on the account. A user deleted from Firebase is skipped (logged): nothing to carry it.
   */
  async syncClaim(db: repo.Queryable, uid: string): Promise<number | null> {
    const entitled = await repo.entitledUntil(db, uid);
    try {
      const current = await getPaymentExpirationTime(this.deps.auth, uid);
      const now = unixSeconds(new Date());
      let target: number | null;
      if (entitled) target = unixSeconds(entitled.until);
      else target = current !== null && current > now ? now : current;
      if (target === current) return current;
      await setPaymentExpirationTime(this.deps.auth, uid, target);
      this.deps.log.info({ uid, paymentExpirationTime: target, previous: current }, 'paymentExpirationTime set');
      return target;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') {
        this.deps.log.warn({ uid }, 'paymentExpirationTime not set: no such Firebase user');
        return null;
      }
      throw error;
    }
  }
}
