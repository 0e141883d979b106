/**
 * The processor's customer of a user (payment_customers: uid → customer id) and the card a card
 * setup saved. The stored id is always passed to the processor (looking a customer up by uid is
 * only its fallback); an id of the other processor (after switching sandbox → Stripe) is not reused.
 */
import type { PaymentProcessor } from '../../../payments';
import { ApiError } from '../../errors';
import { fromProcessorError, isProcessorNotFound, viaProcessor } from './errors';
import * as repo from './repository';

export interface CustomerInput {
  uid: string;
  /**
   * The billing e-mail to register. Purchase flows pass the sign-in address only for a new
   * customer (null otherwise), so the address registered by the function's updateEmail stays.
   */
  email: string | null;
}

/** The user's customer id at the processor, created (and stored) when there is none. */
export async function ensureCustomer(db: repo.Queryable, processor: PaymentProcessor, input: CustomerInput & { updateEmail: boolean }): Promise<{ customerId: string; email: string | null }> {
  const stored = await repo.customerOf(db, input.uid);
  const storedId = stored?.processor === processor.name ? stored.customer_id : null;
  if (storedId && stored && (!input.updateEmail || !input.email || stored.email === input.email)) {
    return { customerId: storedId, email: stored.email };
  }
  const email = storedId && !input.updateEmail ? null : input.email;
  const customer = await viaProcessor(() => processor.ensureCustomer({ uid: input.uid, email, customerId: storedId }));
  await repo.ensureUser(db, input.uid);
  await repo.saveCustomer(db, { uid: input.uid, processor: processor.name, customer_id: customer.id, email: customer.email });
  return { customerId: customer.id, email: customer.email };
}

/**
 * The card saved by card setup `setupId`, read from the processor (never trusting the browser's
 * word that the form succeeded): it must be this customer's and have succeeded. A refused card
 * answers with the processor's Japanese reason.
 */
export async function savedCard(processor: PaymentProcessor, setupId: string, customerId: string): Promise<string> {
  let setup;
  try {
    setup = await processor.getCardSetup(setupId);
  } catch (error) {
    if (isProcessorNotFound(error)) throw new ApiError('card_setup_incomplete', undefined, { cause: error });
    throw fromProcessorError(error);
  }
  if (setup.customerId !== customerId || setup.status !== 'succeeded' || !setup.paymentMethodId) {
    const message = setup.customerId === customerId ? setup.lastError?.message : undefined;
    throw new ApiError('card_setup_incomplete', message, { cause: new Error(`card setup ${setupId} is ${setup.status}`) });
  }
  return setup.paymentMethodId;
}
