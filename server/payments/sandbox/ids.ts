/**
 * Identifiers of the sandbox's objects, shaped like Stripe's: a type prefix and random base62
 * ("cus_…", "pm_…", "seti_…", "sub_…", "in_…", "pi_…", "evt_…"); client secrets are the id, "_secret_"
 * and more randomness, like Stripe's, so the browser can act on one object and nothing else.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    // 62 * 4 = 248: rejecting bytes ≥ 248 keeps every character equally likely.
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export type IdPrefix = 'cus' | 'pm' | 'seti' | 'sub' | 'in' | 'pi' | 'evt';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function newClientSecret(id: string): string {
  return `${id}_secret_${randomBase62(24)}`;
}

/** The object id a client secret belongs to ("seti_X_secret_Y" → "seti_X"), or null. */
export function idFromClientSecret(secret: string): string | null {
  const match = /^((?:seti|pi)_[0-9A-Za-z]{24})_secret_[0-9A-Za-z]{24}$/.exec(secret);
  return match ? match[1] : null;
}
