/**
 * Requests of the payment-invokePaymentRequest function (/work/notes/issue9-plan.md, the contract
 * between functions/ and the api): `updateEmail` registers the billing e-mail with the user's
 * processor customer (created when missing). Idempotent by requestId: the same id from the same
 * user answers the stored result without calling the processor again; the same id from another
 * user is refused (409 payment_request_conflict) and reveals nothing of the first.
 */
import type pg from 'pg';
import type { PaymentRequestBody, PaymentRequestResult } from '../../../../lib/api-types/schemas/payments';
import type { PaymentProcessor } from '../../../payments';
import { ApiError } from '../../errors';
import { ensureCustomer } from './customers';
import { withUserLock } from './locks';
import * as repo from './repository';

function isResult(value: unknown): value is PaymentRequestResult {
  if (typeof value !== 'object' || value === null) return false;
  const { customerId, email } = value as Record<string, unknown>;
  return typeof customerId === 'string' && typeof email === 'string';
}

function storedResult(row: repo.PaymentRequestRow, uid: string): PaymentRequestResult {
  if (row.uid !== uid) throw new ApiError('payment_request_conflict');
  if (!isResult(row.result)) throw new ApiError('internal', undefined, { cause: new Error(`payment request ${row.request_id} has no readable result`) });
  return { customerId: row.result.customerId, email: row.result.email };
}

export async function handlePaymentRequest(db: pg.Pool, processor: PaymentProcessor, body: PaymentRequestBody): Promise<PaymentRequestResult> {
  const requestId = body.requestId.toLowerCase();
  return withUserLock(db, body.uid, async (client) => {
    const earlier = await repo.paymentRequest(client, requestId);
    if (earlier) return storedResult(earlier, body.uid);

    const customer = await ensureCustomer(client, processor, { uid: body.uid, email: body.email, updateEmail: true });
    const result: PaymentRequestResult = { customerId: customer.customerId, email: customer.email ?? body.email };
    if (!(await repo.insertPaymentRequest(client, { requestId, uid: body.uid, method: body.method, result }))) {
      // Another user's request took this id between our read and our write.
      const taken = await repo.paymentRequest(client, requestId);
      if (taken) return storedResult(taken, body.uid);
    }
    return result;
  });
}
