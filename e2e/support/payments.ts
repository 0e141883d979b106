/**
 * The payments sandbox from a Playwright test: its test clock (POST /v1/test_helpers/clock/advance
 * with the stack's secret key, as server/payments/sandbox/client.ts does) and a poll of the api's
 * subscription list until the processor's events have been applied (webhooks are asynchronous).
 */
import { expect } from '@playwright/test';
import { api } from './play';

const SANDBOX_URL = process.env.PAYMENTS_SANDBOX_URL || 'http://127.0.0.1:8380';
const SANDBOX_KEY = process.env.PAYMENTS_SANDBOX_SECRET_KEY || '';

/** Moves the sandbox's clock forward: renewals, expiries and their webhooks fall due. */
export async function advanceSandboxClock(seconds: number): Promise<void> {
  const r = await fetch(`${SANDBOX_URL}/v1/test_helpers/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
  expect(r.status, await r.clone().text()).toBe(200);
}

interface ListedSubscription {
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: number;
}

/** The user's newest subscription as GET /api/subscriptions lists it (newest created first). */
export async function newestSubscription(idToken: string): Promise<ListedSubscription | null> {
  const r = await api<{ subscriptions: (ListedSubscription & { created: number })[] }>('/api/subscriptions', idToken);
  expect(r.status).toBe(200);
  return [...r.body.subscriptions].sort((a, b) => b.created - a.created)[0] ?? null;
}
