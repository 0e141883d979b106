/**
 * Webhook signatures in Stripe's scheme, shared by the sandbox (which signs) and the sandbox
 * client (which verifies), so the same receiver code serves both processors:
 *
 *   Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * The header may carry several v1 values (during a secret rotation); one match is enough.
 * A signature older (or newer) than the tolerance is refused, so a captured request cannot be
 * replayed later. Comparisons are constant-time. The Stripe SDK's constructEvent accepts what
 * `signPayload` produces (tested in sandbox/webhooks.int.test.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookErrorCode } from './processor';

export const SIGNATURE_HEADER = 'stripe-signature';
/** Stripe's default: five minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`, 'utf8');
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return mac.digest('hex');
}

/** The Stripe-Signature header value for `body`, signed at `timestamp` (real unix seconds). */
export function signPayload(secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; error: WebhookErrorCode; message: string };

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** Real unix seconds "now" (tests). */
  now?: number;
}

/** Checks a Stripe-Signature header against the raw body. */
export function verifySignature(
  body: string | Buffer,
  header: string | string[] | undefined,
  secret: string,
  options: VerifyOptions = {},
): SignatureCheck {
  if (header === undefined || header === '' || (Array.isArray(header) && header.length === 0)) {
    return { ok: false, error: 'missing_signature', message: 'no Stripe-Signature header' };
  }
  if (Array.isArray(header)) {
    return { ok: false, error: 'malformed_signature', message: 'more than one Stripe-Signature header' };
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) {
    return { ok: false, error: 'malformed_signature', message: 'Stripe-Signature needs t= and a v1= signature' };
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const matches = signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  if (!matches) {
    return { ok: false, error: 'bad_signature', message: 'no signature matches the body and the webhook secret' };
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (tolerance > 0 && Math.abs(now - timestamp) > tolerance) {
    return { ok: false, error: 'timestamp_out_of_tolerance', message: `signed ${now - timestamp} s ago (tolerance ${tolerance} s)` };
  }
  return { ok: true, timestamp };
}
