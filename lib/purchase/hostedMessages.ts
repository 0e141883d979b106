/**
 * The messages the payments sandbox's hosted pages (card form, 3-D Secure challenge) post to our
 * purchase pages (docs/payments-processor.md "What the web page mounts";
 * server/payments/sandbox/public/card-form.js and challenge.js). A message counts only when it
 * comes from the hosted page's own origin (the one the api named) and carries the sandbox's
 * `source` tag; everything else on the window is ignored. Pure: the components listen, this
 * module decides what a message means.
 */

export const HOSTED_SOURCE = 'yumecast-payments-sandbox';

export interface SavedCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type HostedMessage =
  | { type: 'ready' }
  | { type: 'resize'; height: number }
  | { type: 'card_setup_succeeded'; setupIntentId: string; paymentMethod: SavedCard | null }
  | { type: 'card_setup_failed'; setupIntentId: string; error: { code: string; message: string } }
  | { type: 'authentication_finished'; paymentIntentId: string; status: 'succeeded' | 'requires_payment_method'; error: { code?: string; message: string } | null };

type Raw = Record<string, unknown>;

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function card(v: unknown): SavedCard | null {
  if (!v || typeof v !== 'object') return null;
  const c = v as Raw;
  if (!str(c.id) || !str(c.brand) || !str(c.last4) || !num(c.expMonth) || !num(c.expYear)) return null;
  return { id: c.id, brand: c.brand, last4: c.last4, expMonth: c.expMonth, expYear: c.expYear };
}

function failure(v: unknown): { code: string; message: string } | null {
  if (!v || typeof v !== 'object') return null;
  const e = v as Raw;
  return str(e.message) ? { code: str(e.code) ? e.code : 'unknown', message: e.message } : null;
}

/**
 * What a `message` event means, or null when it is not ours: wrong origin (`expectedOrigin` is
 * the hosted page's origin from the api's answer), no source tag, or an unknown shape.
 */
export function parseHostedMessage(origin: string, data: unknown, expectedOrigin: string): HostedMessage | null {
  if (!expectedOrigin || origin !== expectedOrigin) return null;
  if (!data || typeof data !== 'object') return null;
  const m = data as Raw;
  if (m.source !== HOSTED_SOURCE || !str(m.type)) return null;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'resize':
      return num(m.height) && m.height > 0 ? { type: 'resize', height: Math.min(Math.ceil(m.height), 2000) } : null;
    case 'card_setup_succeeded':
      return str(m.setupIntentId) ? { type: 'card_setup_succeeded', setupIntentId: m.setupIntentId, paymentMethod: card(m.paymentMethod) } : null;
    case 'card_setup_failed': {
      const error = failure(m.error);
      return str(m.setupIntentId) && error ? { type: 'card_setup_failed', setupIntentId: m.setupIntentId, error } : null;
    }
    case 'authentication_finished':
      if (!str(m.paymentIntentId) || (m.status !== 'succeeded' && m.status !== 'requires_payment_method')) return null;
      return { type: 'authentication_finished', paymentIntentId: m.paymentIntentId, status: m.status, error: failure(m.error) };
    default:
      return null;
  }
}

/** The origin of a URL ("" when it is not an http(s) URL). */
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}
