/**
 * The card step of the purchase (issue 9 §3.3) as one hook: card setup → the processor's card
 * form → the final confirmation → subscribe → (3-D Secure → confirm) → done. The page shows
 * what `step` says; the hosted pages' results arrive through `cardSaved` / `cardRefused` /
 * `challengeFinished` (components/purchase listen to postMessage from the hosted page's origin).
 *
 * Nothing is charged twice: `pay` runs once at a time (a double click sends one request), and
 * one idempotency key belongs to one press: it is kept when the answer was lost (network,
 * timeout, still running) so the retry replays the first request, and dropped after a definite
 * answer (a refused card gets a new setup and, on the next press, a new key).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError, messageFor } from '@/lib/api/client';
import {
  confirmPurchase,
  createCardSetup,
  fetchCurrentSubscription,
  fetchPlans,
  subscribe,
  type CardSetup,
  type PaymentAction,
  type Plan,
  type Subscription,
} from '@/lib/api/purchase';
import type { SavedCard } from './hostedMessages';
import { newRequestId } from './billingEmail';
import { refreshPaymentClaim } from './refreshClaim';

export type PurchaseStep =
  | { kind: 'loading' }
  | { kind: 'load_failed'; message: string }
  | { kind: 'subscribed'; subscription: Subscription }
  | { kind: 'setup' }
  | { kind: 'card'; setup: CardSetup }
  | { kind: 'review'; setup: CardSetup; card: SavedCard | null }
  | { kind: 'paying'; setup: CardSetup; card: SavedCard | null }
  | { kind: 'challenge'; subscription: Subscription; action: PaymentAction }
  | { kind: 'confirming'; subscription: Subscription }
  /** `claim`: the token refresh for paymentExpirationTime is running, done, or found no claim yet. */
  | { kind: 'done'; subscription: Subscription; claim: ClaimState };

export type ClaimState = 'refreshing' | 'fresh' | 'late';

/** Codes after which the same request may be sent again with the same key. */
const LOST_ANSWER = new Set(['network', 'timeout', 'idempotency_conflict', 'service_unavailable', 'internal', 'bad_response']);

function messageOf(e: unknown): string {
  return e instanceof ApiClientError ? e.userMessage : messageFor('unexpected');
}

function codeOf(e: unknown): string {
  return e instanceof ApiClientError ? e.code : 'unexpected';
}

export const CHALLENGE_FAILED_MESSAGE = '本人認証（3-Dセキュア）が完了しなかったため、お支払いできませんでした。もう一度お試しいただくか、別のカードをお使いください。';

export function usePurchaseFlow(wantedPlanId: string | null) {
  const [step, setStep] = useState<PurchaseStep>({ kind: 'loading' });
  const [plan, setPlan] = useState<Plan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const idempotencyKey = useRef<string | null>(null);
  const busy = useRef(false);
  const alive = useRef(true);

  const safeSet = useCallback((s: PurchaseStep) => {
    if (alive.current) setStep(s);
  }, []);

  /** A card form session: the card step, or where a failure leaves the page. */
  const setupStep = useCallback(async (): Promise<PurchaseStep> => {
    try {
      return { kind: 'card', setup: await createCardSetup() };
    } catch (e) {
      if (codeOf(e) === 'already_subscribed') {
        const current = await fetchCurrentSubscription().catch(() => null);
        if (current) return { kind: 'subscribed', subscription: current };
      }
      return { kind: 'load_failed', message: messageOf(e) };
    }
  }, []);

  const newSetup = useCallback(async () => {
    safeSet({ kind: 'setup' });
    safeSet(await setupStep());
  }, [safeSet, setupStep]);

  // Plans and the current subscription, then the first card setup. `loads` counts retries.
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    alive.current = true;
    const start = async (): Promise<{ plan: Plan | null; step: PurchaseStep }> => {
      try {
        const [plans, current] = await Promise.all([fetchPlans(), fetchCurrentSubscription()]);
        if (current?.entitled) return { plan: null, step: { kind: 'subscribed', subscription: current } };
        const chosen = plans.find((p) => p.id === wantedPlanId) ?? plans[0] ?? null;
        if (!chosen) return { plan: null, step: { kind: 'load_failed', message: messageFor('plan_not_found') } };
        return { plan: chosen, step: await setupStep() };
      } catch (e) {
        return { plan: null, step: { kind: 'load_failed', message: messageOf(e) } };
      }
    };
    void start().then((r) => {
      if (!alive.current) return;
      setPlan(r.plan);
      setStep(r.step);
    });
    return () => {
      alive.current = false;
    };
  }, [loads, setupStep, wantedPlanId]);

  const finish = useCallback(
    async (subscription: Subscription) => {
      idempotencyKey.current = null;
      // Show the result at once; the claim refresh runs behind it (the header follows the store).
      safeSet({ kind: 'done', subscription, claim: 'refreshing' });
      const claim = await refreshPaymentClaim();
      safeSet({ kind: 'done', subscription, claim: claim !== null ? 'fresh' : 'late' });
    },
    [safeSet],
  );

  /** A refused card or payment: its message, and the card form again with a new setup. */
  const refused = useCallback(
    (message: string) => {
      idempotencyKey.current = null;
      setError(message);
      void newSetup();
    },
    [newSetup],
  );

  const cardSaved = useCallback((setup: CardSetup, card: SavedCard | null) => {
    setError(null);
    setStep((s) => (s.kind === 'card' && s.setup.setupId === setup.setupId ? { kind: 'review', setup, card } : s));
  }, []);

  const cardRefused = useCallback((message: string) => setError(message), []);

  const pay = useCallback(async () => {
    if (busy.current || step.kind !== 'review' || !plan) return;
    busy.current = true;
    const { setup, card } = step;
    idempotencyKey.current ??= newRequestId();
    setError(null);
    safeSet({ kind: 'paying', setup, card });
    try {
      const r = await subscribe({ planId: plan.id, setupId: setup.setupId, idempotencyKey: idempotencyKey.current });
      if (r.result === 'active') await finish(r.subscription);
      else if (r.action) {
        idempotencyKey.current = null;
        safeSet({ kind: 'challenge', subscription: r.subscription, action: r.action });
      }
    } catch (e) {
      const code = codeOf(e);
      if (code === 'already_subscribed') {
        const current = await fetchCurrentSubscription().catch(() => null);
        if (current) safeSet({ kind: 'subscribed', subscription: current });
        else safeSet({ kind: 'load_failed', message: messageOf(e) });
      } else if (LOST_ANSWER.has(code) || (e instanceof ApiClientError && e.httpStatus >= 500)) {
        // The answer was lost: the same key replays the first request on the next press.
        setError(messageOf(e));
        safeSet({ kind: 'review', setup, card });
      } else {
        refused(messageOf(e));
      }
    } finally {
      busy.current = false;
    }
  }, [finish, plan, refused, safeSet, step]);

  const challengeFinished = useCallback(
    async (status: 'succeeded' | 'requires_payment_method', message: string | null) => {
      if (busy.current || step.kind !== 'challenge') return;
      busy.current = true;
      const { subscription } = step;
      safeSet({ kind: 'confirming', subscription });
      try {
        const r = await confirmPurchase(subscription.id);
        if (r.result === 'active') await finish(r.subscription);
        else refused(status === 'succeeded' ? CHALLENGE_FAILED_MESSAGE : (message ?? CHALLENGE_FAILED_MESSAGE));
      } catch (e) {
        const code = codeOf(e);
        if (LOST_ANSWER.has(code)) {
          setError(messageOf(e));
          safeSet({ kind: 'challenge', subscription, action: step.action });
        } else refused(code === 'payment_failed' || code === 'card_declined' ? messageOf(e) : (message ?? messageOf(e)));
      } finally {
        busy.current = false;
      }
    },
    [finish, refused, safeSet, step],
  );

  /** Back from the confirmation to a fresh card form (another card). */
  const changeCardBeforePaying = useCallback(() => {
    if (busy.current) return;
    idempotencyKey.current = null;
    setError(null);
    void newSetup();
  }, [newSetup]);

  const retry = useCallback(() => {
    setStep({ kind: 'loading' });
    setError(null);
    setLoads((n) => n + 1);
  }, []);

  return { step, plan, error, retry, cardSaved, cardRefused, pay, challengeFinished, changeCardBeforePaying };
}
