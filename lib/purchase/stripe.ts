/**
 * Stripe.js for the purchase pages when the api runs the `stripe` processor (its card setup
 * answers `stripe_payment_element`, its 3-D Secure step `stripe_confirm_payment`;
 * docs/purchase-web.md "Stripe in production (the web)"). `@stripe/stripe-js` is loaded with
 * `import()` only when such a mount is given: importing it injects https://js.stripe.com, which
 * the sandbox path and every other page must not carry. The card number is typed into Stripe's
 * own iframes and never passes through our page (issue 9 §5).
 *
 * Also here, pure: what a confirmSetup / handleNextAction result means for the flow, which of
 * Stripe's messages may be shown as they are (Stripe localises card and validation errors with
 * locale `ja`), and the Payment Element's appearance from our theme's colours.
 */
import type { Appearance, SetupIntent, Stripe, StripeError } from '@stripe/stripe-js';
import type { SavedCard } from './hostedMessages';
import { CARD_SETUP_FAILED_MESSAGE } from './format';

/** The language of Stripe's forms, 3-D Secure dialog and error messages. */
export const STRIPE_LOCALE = 'ja';

/** How long Stripe.js and its Payment Element may take before the page says something is wrong (as the sandbox's frame). */
export const STRIPE_READY_TIMEOUT_MS = 20_000;

/**
 * Stripe.js for a publishable key (the api's). Rejects when the script cannot be loaded
 * (offline, blocked by an extension or the CSP): `loadStripe` forgets a failed load, so calling
 * again retries. Never resolves null.
 */
export async function loadStripeJs(publishableKey: string): Promise<Stripe> {
  if (!publishableKey) throw new Error('no publishable key');
  const { loadStripe } = await import('@stripe/stripe-js');
  const stripe = await loadStripe(publishableKey, { locale: STRIPE_LOCALE });
  if (!stripe) throw new Error('Stripe.js not available');
  return stripe;
}

/** What a card saved in Stripe's form gives the flow: the same as the sandbox's `card_setup_succeeded`. */
export interface StripeCardSaved {
  setupIntentId: string;
  paymentMethodId: string | null;
  /** Brand, last 4 and expiry when Stripe.js returned the payment method expanded; usually null (the api reads them). */
  card: SavedCard | null;
}

export type StripeSetupOutcome = { kind: 'saved'; saved: StripeCardSaved } | { kind: 'failed'; message: string };

/**
 * The message a Stripe error may show to the user: card and validation errors are written for
 * the cardholder (and localised); the rest (api, connection, invalid request…) are not, so
 * `fallback` is shown instead.
 */
export function stripeErrorMessage(error: Pick<StripeError, 'type' | 'message'> | null | undefined, fallback: string): string {
  if (error && (error.type === 'card_error' || error.type === 'validation_error') && error.message) return error.message;
  return fallback;
}

function savedCardOf(intent: SetupIntent): { paymentMethodId: string | null; card: SavedCard | null } {
  const pm = intent.payment_method;
  if (!pm) return { paymentMethodId: null, card: null };
  if (typeof pm === 'string') return { paymentMethodId: pm, card: null };
  const c = pm.card;
  const card = c && c.last4 ? { id: pm.id, brand: c.brand, last4: c.last4, expMonth: c.exp_month, expYear: c.exp_year } : null;
  return { paymentMethodId: pm.id, card };
}

/** What `stripe.confirmSetup({ elements, redirect: 'if_required' })` answered, for the flow. */
export function setupOutcome(result: { setupIntent?: SetupIntent; error?: StripeError }): StripeSetupOutcome {
  if (result.error) return { kind: 'failed', message: stripeErrorMessage(result.error, CARD_SETUP_FAILED_MESSAGE) };
  const intent = result.setupIntent;
  if (!intent || intent.status !== 'succeeded') return { kind: 'failed', message: CARD_SETUP_FAILED_MESSAGE };
  return { kind: 'saved', saved: { setupIntentId: intent.id, ...savedCardOf(intent) } };
}

/**
 * What `stripe.handleNextAction({ clientSecret })` answered, as the sandbox challenge's
 * `authentication_finished` says it: either way the page asks the api to confirm (the api reads
 * the processor again; the browser's word decides nothing). The message is shown only when the
 * api says the payment did not go through.
 */
export function challengeOutcome(result: { paymentIntent?: { status: string }; error?: StripeError }): {
  status: 'succeeded' | 'requires_payment_method';
  message: string | null;
} {
  if (result.error) return { status: 'requires_payment_method', message: stripeErrorMessage(result.error, '') || null };
  const status = result.paymentIntent?.status;
  return status === 'succeeded' || status === 'processing' || status === 'requires_capture' ? { status: 'succeeded', message: null } : { status: 'requires_payment_method', message: null };
}

/** The colours of our theme that the Payment Element takes (styles/theme.ts Palette). */
export interface StripeColours {
  name: 'dark' | 'light';
  surface: string;
  border: string;
  text: string;
  textMuted: string;
  primary: string;
  destructive: string;
}

/** The Payment Element in our theme: Stripe's own dark/light theme, our colours, Japanese fonts. */
export function stripeAppearance(p: StripeColours): Appearance {
  return {
    theme: p.name === 'dark' ? 'night' : 'stripe',
    variables: {
      colorPrimary: p.primary,
      colorBackground: p.surface,
      colorText: p.text,
      colorTextSecondary: p.textMuted,
      colorDanger: p.destructive,
      fontFamily: '"Noto Sans JP", "Hiragino Kaku Gothic ProN", "Hiragino Sans", Meiryo, sans-serif',
      borderRadius: '8px',
    },
    rules: { '.Input': { borderColor: p.border } },
  };
}

