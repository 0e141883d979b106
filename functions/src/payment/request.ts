/**
 * What payment-invokePaymentRequest accepts, checked before anything leaves the function:
 * - the caller: signed in (else 'unauthenticated'), not anonymous and with a verified e-mail
 *   address (else 'permission-denied'): the e-mail is what we register with the processor;
 * - the payload: `{ method: 'updateEmail', requestId: <UUID> }` (else 'invalid-argument').
 * The uid and the e-mail come from the verified ID token, never from the payload. The UUID
 * format is the wire contracts' one (lib/api-types/ids.ts), the same the api checks.
 */
import { HttpsError, type CallableRequest } from 'firebase-functions/v2/https';
import { UUID_RE } from '../../../lib/api-types/ids';
import { MESSAGES } from '../messages';

export const PAYMENT_METHODS = ['updateEmail'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export interface PaymentCaller {
  uid: string;
  email: string;
}

export interface PaymentPayload {
  method: PaymentMethod;
  /** Lower-case canonical form: the api's idempotency key (one request, one result). */
  requestId: string;
}

/** The caller as the verified ID token names it; refuses visitors and unverified addresses. */
export function callerOf(auth: CallableRequest['auth']): PaymentCaller {
  if (!auth?.uid) throw new HttpsError('unauthenticated', MESSAGES.unauthenticated);
  const token = auth.token;
  if (token.firebase?.sign_in_provider === 'anonymous') {
    throw new HttpsError('permission-denied', MESSAGES.anonymous, { reason: 'anonymous' });
  }
  const email = typeof token.email === 'string' ? token.email.trim() : '';
  if (!email || token.email_verified !== true) {
    throw new HttpsError('permission-denied', MESSAGES.emailUnverified, { reason: 'email_unverified' });
  }
  return { uid: auth.uid, email };
}

/** The payload, validated; only these two fields are ever forwarded. */
export function payloadOf(data: unknown): PaymentPayload {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new HttpsError('invalid-argument', MESSAGES.invalidData, { field: 'data' });
  }
  const { method, requestId } = data as { method?: unknown; requestId?: unknown };
  if (typeof method !== 'string' || !(PAYMENT_METHODS as readonly string[]).includes(method)) {
    throw new HttpsError('invalid-argument', MESSAGES.invalidMethod, { field: 'method' });
  }
  if (typeof requestId !== 'string' || !UUID_RE.test(requestId)) {
    throw new HttpsError('invalid-argument', MESSAGES.invalidRequestId, { field: 'requestId' });
  }
  return { method: method as PaymentMethod, requestId: requestId.toLowerCase() };
}
