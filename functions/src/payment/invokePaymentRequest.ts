/**
 * payment-invokePaymentRequest (spec: callable `payment-invokePaymentRequest`, payload
 * `{ method: 'updateEmail', requestId }`): registers the signed-in user's verified e-mail address
 * as the billing e-mail of their payment-processor customer, through our api, which creates the
 * customer if needed and answers the same result for a repeated requestId.
 *
 * Browser: `httpsCallable(getFunctions(app, 'asia-northeast1'), 'payment-invokePaymentRequest')
 * ({ method: 'updateEmail', requestId: crypto.randomUUID() })` → `{ customerId, email }`.
 */
import { onCall } from 'firebase-functions/v2/https';
import { apiTarget, IN_EMULATOR } from '../config';
import { FUNCTIONS_REGION } from '../region';
import { forwardPaymentRequest, type PaymentRequestResult } from './forward';
import { callerOf, payloadOf } from './request';

export const invokePaymentRequest = onCall<unknown, Promise<PaymentRequestResult>>(
  {
    region: FUNCTIONS_REGION,
    timeoutSeconds: 30,
    memory: '256MiB',
    maxInstances: 10,
    // Production reads the token from Secret Manager; the emulator gets it from the stack's env
    // (binding a secret there would make the emulator ask Secret Manager, which is offline).
    secrets: IN_EMULATOR ? [] : ['INTERNAL_API_TOKEN'],
  },
  async (request) => {
    const caller = callerOf(request.auth);
    const payload = payloadOf(request.data);
    return forwardPaymentRequest(apiTarget(), caller, payload);
  },
);
