/**
 * The sandbox's simulated card network: Stripe's test card numbers and what each does, the
 * checks a real form makes (Luhn, expiry, CVC), refused with the Japanese messages of ../failures.ts.
 * A card is reduced here to brand, last four digits, expiry month/year and a behaviour; the
 * number itself goes no further than this function's arguments (never stored, never logged).
 */
import type { PaymentFailure } from '../processor';
import { failure } from '../failures';

/** How the simulated issuer answers charges on a saved card. */
export type CardBehaviour =
  /** Every charge succeeds. */
  | 'succeed'
  /** Saving works, every charge is declined (Stripe's 4000 0000 0000 0341; or set by a test). */
  | 'decline'
  /** The first on-session payment asks for 3-D Secure; off-session renewals then succeed (…3155). */
  | 'require_3ds';

interface TestCard {
  /** Refused when the card is saved. */
  setupError?: { code: string; declineCode?: string };
  behaviour: CardBehaviour;
}

/** Stripe's test cards (https://docs.stripe.com/testing), keyed by number without spaces. */
const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { behaviour: 'succeed' },
  '4000056655665556': { behaviour: 'succeed' },
  '5555555555554444': { behaviour: 'succeed' },
  '2223003122003222': { behaviour: 'succeed' },
  '378282246310005': { behaviour: 'succeed' },
  '3566002020360505': { behaviour: 'succeed' },
  '36227206271667': { behaviour: 'succeed' },
  '4000000000000002': { behaviour: 'decline', setupError: { code: 'card_declined', declineCode: 'generic_decline' } },
  '4000000000009995': { behaviour: 'decline', setupError: { code: 'card_declined', declineCode: 'insufficient_funds' } },
  '4000000000009987': { behaviour: 'decline', setupError: { code: 'card_declined', declineCode: 'lost_card' } },
  '4000000000009979': { behaviour: 'decline', setupError: { code: 'card_declined', declineCode: 'stolen_card' } },
  '4000000000000069': { behaviour: 'decline', setupError: { code: 'expired_card' } },
  '4000000000000127': { behaviour: 'decline', setupError: { code: 'incorrect_cvc' } },
  '4000000000000119': { behaviour: 'decline', setupError: { code: 'processing_error' } },
  '4000000000000341': { behaviour: 'decline' },
  '4000002500003155': { behaviour: 'require_3ds' },
  '4000002760003184': { behaviour: 'require_3ds' },
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb';
  if (/^3(0[0-5]|[68])/.test(digits)) return 'diners';
  if (/^6(011|5)/.test(digits)) return 'discover';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface TokenisedCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  behaviour: CardBehaviour;
}

/**
 * Checks a card as an issuer would at setup time. `now` is the sandbox clock (unix seconds):
 * a card is valid through the last day of its expiry month.
 */
export function tokeniseCard(input: CardInput, now: number): { ok: true; card: TokenisedCard } | { ok: false; failure: PaymentFailure } {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits) || !luhnValid(digits)) return { ok: false, failure: failure('incorrect_number') };
  const { expMonth } = input;
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12 || !Number.isInteger(expYear)) {
    return { ok: false, failure: failure('invalid_expiry') };
  }
  const today = new Date(now * 1000);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() + 1;
  if (expYear < year || (expYear === year && expMonth < month)) return { ok: false, failure: failure('expired_card') };
  if (expYear > year + 50) return { ok: false, failure: failure('invalid_expiry') };
  const brand = cardBrand(digits);
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc)) return { ok: false, failure: failure('invalid_cvc') };

  const test = TEST_CARDS[digits];
  if (!test) return { ok: false, failure: failure('card_declined', 'test_mode_live_card') };
  if (test.setupError) return { ok: false, failure: failure(test.setupError.code, test.setupError.declineCode) };
  return { ok: true, card: { brand, last4: digits.slice(-4), expMonth, expYear, behaviour: test.behaviour } };
}
