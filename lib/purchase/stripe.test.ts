/**
 * lib/purchase/stripe.ts without a browser: which of Stripe's messages are shown as they are,
 * what confirmSetup and handleNextAction answers mean for the flow, the Payment Element's
 * appearance per theme, and loadStripeJs (`@stripe/stripe-js` as a double) never resolving null.
 */
import type { SetupIntent, StripeError } from '@stripe/stripe-js';
import { darkTheme, lightTheme } from '@/styles/theme';
import { CARD_SETUP_FAILED_MESSAGE } from './format';
import { challengeOutcome, loadStripeJs, setupOutcome, stripeAppearance, stripeErrorMessage } from './stripe';

const loadStripe = jest.fn();
jest.mock('@stripe/stripe-js', () => ({ loadStripe: (...a: unknown[]) => loadStripe(...a) }));

const intent = (over: Partial<SetupIntent>): SetupIntent => ({ id: 'seti_1', status: 'succeeded', payment_method: 'pm_1', ...over }) as SetupIntent;
const error = (type: StripeError['type'], message = 'メッセージ'): StripeError => ({ type, message });

beforeEach(() => loadStripe.mockReset());

describe('stripeErrorMessage', () => {
  it("shows Stripe's words for card and validation errors only", () => {
    expect(stripeErrorMessage(error('card_error', '残高不足です。'), 'x')).toBe('残高不足です。');
    expect(stripeErrorMessage(error('validation_error', 'カード番号が不完全です。'), 'x')).toBe('カード番号が不完全です。');
    expect(stripeErrorMessage(error('api_connection_error', 'Network error'), 'x')).toBe('x');
    expect(stripeErrorMessage(error('invalid_request_error', 'No such setupintent'), 'x')).toBe('x');
    expect(stripeErrorMessage({ type: 'card_error' }, 'x')).toBe('x');
    expect(stripeErrorMessage(null, 'x')).toBe('x');
  });
});

describe('setupOutcome', () => {
  it('a succeeded SetupIntent is a saved card, with the card only when Stripe expanded it', () => {
    expect(setupOutcome({ setupIntent: intent({}) })).toEqual({ kind: 'saved', saved: { setupIntentId: 'seti_1', paymentMethodId: 'pm_1', card: null } });
    const expanded = intent({ payment_method: { id: 'pm_2', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } } as SetupIntent['payment_method'] });
    expect(setupOutcome({ setupIntent: expanded })).toEqual({
      kind: 'saved',
      saved: { setupIntentId: 'seti_1', paymentMethodId: 'pm_2', card: { id: 'pm_2', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } },
    });
  });

  it('an error or an unfinished SetupIntent is a refusal with a Japanese message', () => {
    expect(setupOutcome({ error: error('card_error', 'カードが拒否されました。') })).toEqual({ kind: 'failed', message: 'カードが拒否されました。' });
    expect(setupOutcome({ error: error('api_error', 'Something went wrong') })).toEqual({ kind: 'failed', message: CARD_SETUP_FAILED_MESSAGE });
    expect(setupOutcome({ setupIntent: intent({ status: 'requires_payment_method' }) })).toEqual({ kind: 'failed', message: CARD_SETUP_FAILED_MESSAGE });
    expect(setupOutcome({})).toEqual({ kind: 'failed', message: CARD_SETUP_FAILED_MESSAGE });
  });
});

describe('challengeOutcome', () => {
  it('says what the sandbox challenge says; the api decides', () => {
    expect(challengeOutcome({ paymentIntent: { status: 'succeeded' } })).toEqual({ status: 'succeeded', message: null });
    expect(challengeOutcome({ paymentIntent: { status: 'processing' } })).toEqual({ status: 'succeeded', message: null });
    expect(challengeOutcome({ paymentIntent: { status: 'requires_payment_method' } })).toEqual({ status: 'requires_payment_method', message: null });
    expect(challengeOutcome({ error: error('card_error', '認証に失敗しました。') })).toEqual({ status: 'requires_payment_method', message: '認証に失敗しました。' });
    expect(challengeOutcome({ error: error('invalid_request_error', 'auth failure') })).toEqual({ status: 'requires_payment_method', message: null });
  });
});

describe('stripeAppearance', () => {
  it("follows the theme: Stripe's night theme for dark, our colours", () => {
    expect(stripeAppearance(darkTheme)).toMatchObject({ theme: 'night', variables: { colorPrimary: darkTheme.primary, colorBackground: darkTheme.surface } });
    expect(stripeAppearance(lightTheme)).toMatchObject({ theme: 'stripe', variables: { colorText: lightTheme.text } });
  });
});

describe('loadStripeJs', () => {
  it('loads with the key in Japanese; a null or a failure rejects', async () => {
    const stripe = { elements: jest.fn() };
    loadStripe.mockResolvedValueOnce(stripe).mockResolvedValueOnce(null).mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    await expect(loadStripeJs('pk_test_1')).resolves.toBe(stripe);
    expect(loadStripe).toHaveBeenCalledWith('pk_test_1', { locale: 'ja' });
    await expect(loadStripeJs('pk_test_1')).rejects.toThrow();
    await expect(loadStripeJs('pk_test_1')).rejects.toThrow('Failed to load Stripe.js');
    await expect(loadStripeJs('')).rejects.toThrow();
    expect(loadStripe).toHaveBeenCalledTimes(3);
  });
});
