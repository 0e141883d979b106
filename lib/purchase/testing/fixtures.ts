/**
 * Plan and subscription fixtures for the purchase unit tests (lib/purchase and
 * components/purchase), as the browser's client types them. Not imported by the app.
 */
import type { Plan, Subscription } from '@/lib/api/purchase';

export const DAY = 86_400;

export const plan = (over: Partial<Plan> = {}): Plan => ({ id: 'standard', name: 'スタンダードプラン', amountJpy: 1234, interval: 'month', intervalCount: 1, ...over });

/** An active subscription, a day into a 30-day period at `nowS` (unix seconds; default now). */
export function subscription(over: Partial<Subscription> = {}, nowS: number = Math.floor(Date.now() / 1000)): Subscription {
  return {
    id: '7b0c6f2e-3a41-4d5e-9f60-1a2b3c4d5e6f',
    status: 'active',
    plan: plan(),
    created: nowS - DAY,
    currentPeriodStart: nowS - DAY,
    currentPeriodEnd: nowS + 29 * DAY,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    entitled: true,
    accessUntil: nowS + 29 * DAY,
    card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    ...over,
  };
}
