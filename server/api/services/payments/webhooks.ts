/**
 * The processor's webhooks (docs/purchase.md "Webhooks"; docs/payments-processor.md): the raw
 * body's signature is verified by the processor (`verifyWebhook`, Stripe's scheme for both); a
 * bad one is a 400 and changes nothing. Each event id is applied once (webhook_events), and an
 * event is only a hint: the subscription it names is read again from the processor and stored
 * as it is now, so retries, replays and events out of order are all harmless. An event is
 * recorded as applied only after the change and the claim are written: a failure answers 5xx
 * and the processor delivers it again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { PaymentProcessor, ProcessorEvent } from '../../../payments';
import { ApiError } from '../../errors';
import { fromProcessorError, isProcessorNotFound, viaProcessor } from './errors';
import { withUserLock } from './locks';
import * as repo from './repository';
import type { SubscriptionSync } from './sync';

export interface WebhookDeps {
  db: pg.Pool;
  processor: PaymentProcessor;
  sync: SubscriptionSync;
  log: FastifyBaseLogger;
}

export interface WebhookOutcome {
  /** The event id had been applied before: nothing was done. */
  duplicate: boolean;
}

export const BAD_SIGNATURE = 'Webhook の署名を確認できませんでした。';

/** The processor subscription and customer an event is about (null for events we ignore). */
function subjectOf(event: ProcessorEvent): { subscriptionId: string; customerId: string } | null {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { subscriptionId: event.subscription.id, customerId: event.subscription.customerId };
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return event.invoice.subscriptionId ? { subscriptionId: event.invoice.subscriptionId, customerId: event.invoice.customerId } : null;
    default:
      return null;
  }
}

export async function handleWebhook(deps: WebhookDeps, rawBody: Buffer, signature: string | string[] | undefined): Promise<WebhookOutcome> {
  const verified = deps.processor.verifyWebhook({ rawBody, signature });
  if (!verified.ok) {
    throw new ApiError('invalid_request', BAD_SIGNATURE, { cause: new Error(`${verified.error}: ${verified.message}`) });
  }
  const event = verified.event;
  if (await repo.eventApplied(deps.db, event.id)) {
    deps.log.info({ event: event.id, type: event.type }, 'webhook event already applied');
    return { duplicate: true };
  }
  const subject = subjectOf(event);
  if (subject) await syncSubscription(deps, subject.subscriptionId, subject.customerId);
  await repo.recordEvent(deps.db, { id: event.id, type: event.type === 'other' ? event.originalType : event.type, processor: deps.processor.name });
  return { duplicate: false };
}

/** Whose subscription it is: our record, else our customer table, else the uid we put in its metadata. */
async function ownerOf(deps: WebhookDeps, subscriptionId: string, customerId: string): Promise<string | null> {
  const stored = await repo.subscriptionByProcessorId(deps.db, subscriptionId);
  if (stored) return stored.uid;
  const uid = await repo.uidOfCustomer(deps.db, deps.processor.name, customerId);
  if (uid) return uid;
  try {
    const sub = await viaProcessor(() => deps.processor.getSubscription(subscriptionId));
    return sub.metadata.uid || null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}

async function syncSubscription(deps: WebhookDeps, subscriptionId: string, customerId: string): Promise<void> {
  const uid = await ownerOf(deps, subscriptionId, customerId);
  if (!uid) {
    deps.log.warn({ subscription: subscriptionId }, 'webhook about a subscription of no user we know: ignored');
    return;
  }
  await withUserLock(deps.db, uid, async (client) => {
    try {
      await deps.sync.refresh(client, uid, subscriptionId);
    } catch (error) {
      if (isProcessorNotFound(error)) {
        deps.log.warn({ subscription: subscriptionId }, 'webhook about a subscription the processor does not have: ignored');
        return;
      }
      throw fromProcessorError(error);
    }
    await deps.sync.syncClaim(client, uid);
  });
}
