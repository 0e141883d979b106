/**
 * Fixtures of the purchase unit tests: plans, subscriptions, card setups and the hosted pages'
 * postMessage events as the payments sandbox sends them. Not imported by the app.
 */
import { act } from '@testing-library/react';
import type { CardSetup, PurchaseResult, PurchaseSummary } from '@/lib/api/purchase';
import { subscription } from '@/lib/purchase/testing/fixtures';
import { HOSTED_SOURCE } from '@/lib/purchase/hostedMessages';

export const SANDBOX = 'http://127.0.0.1:8300';
export { DAY, plan, subscription } from '@/lib/purchase/testing/fixtures';

let setups = 0;
export function cardSetup(): CardSetup {
  setups += 1;
  return { setupId: `seti_${setups}`, mount: { kind: 'sandbox_iframe', url: `${SANDBOX}/hosted/card-form?client_secret=seti_${setups}_secret`, origin: SANDBOX } };
}

export const active = (sub = subscription()): PurchaseResult => ({ result: 'active', subscription: sub, action: null });

export const requiresAction = (sub = subscription({ status: 'incomplete', entitled: false, accessUntil: null })): PurchaseResult => ({
  result: 'requires_action',
  subscription: sub,
  action: { kind: 'sandbox_challenge', url: `${SANDBOX}/hosted/3ds?client_secret=pi_1_secret`, origin: SANDBOX, paymentId: 'pi_1' },
});

export function summary(over: Partial<PurchaseSummary> = {}): PurchaseSummary {
  return { entitled: true, accessUntil: null, subscription: null, card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }, invoices: [], ...over };
}

/** Posts `data` to the page as the iframe with `testId` would (its window as the source). */
export function postFromFrame(testId: string, data: Record<string, unknown>, origin = SANDBOX) {
  const frame = document.querySelector(`[data-testid="${testId}"] iframe`) as HTMLIFrameElement;
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { origin, data: { source: HOSTED_SOURCE, ...data }, source: frame.contentWindow }));
  });
}

export const cardSaved = (setupIntentId: string) => ({
  type: 'card_setup_succeeded',
  setupIntentId,
  paymentMethod: { id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
});
