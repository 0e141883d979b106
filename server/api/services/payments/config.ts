/**
 * The api's payments settings (docs/purchase.md "Configuration"): which processor and how to
 * reach it (the environment `createProcessor` reads: PAYMENTS_PROCESSOR, PAYMENTS_SANDBOX_*,
 * PAYMENTS_WEBHOOK_SECRET, STRIPE_*), the web origin the processor's pages talk to, the grace
 * period of a failed renewal and the internal token of the payment-request route.
 */
import { envInt, envString, type Env } from '../../../shared/env';

export interface PaymentsConfig {
  /**
   * The variables `createProcessor(env)` (server/payments/index.ts) reads. The process
   * environment by default; tests pass their sandbox's URL and secrets here.
   */
  processorEnv: Env;
  /**
   * PAYMENTS_WEB_ORIGIN: the web origin the card form and the 3-D Secure page may be framed by
   * and post their results to, when the request's Origin is not one of WEB_ORIGIN (default: the
   * first WEB_ORIGIN). It must be on the sandbox's PAYMENTS_SANDBOX_ALLOWED_ORIGINS.
   */
  webOrigin: string;
  /**
   * PAYMENTS_GRACE_DAYS (default 7): how long a past_due subscription (a renewal failed, the
   * processor retries) keeps the plan on our clock, and how long an active one outlives its
   * period end if no renewal webhook came. At least the processor's retry schedule (sandbox: 5 days).
   */
  graceSeconds: number;
  /** INTERNAL_API_TOKEN (≥ 32 characters): POST /internal/v1/payment-requests; unset → that route does not exist. */
  internalToken?: string;
}

export const DEFAULT_GRACE_DAYS = 7;

export function loadPaymentsConfig(env: Env, webOrigins: string[]): PaymentsConfig {
  return {
    processorEnv: env,
    webOrigin: envString(env.PAYMENTS_WEB_ORIGIN) ?? webOrigins[0] ?? 'http://127.0.0.1:3000',
    graceSeconds: envInt(env, 'PAYMENTS_GRACE_DAYS', DEFAULT_GRACE_DAYS, 0, 60) * 86_400,
    internalToken: envString(env.INTERNAL_API_TOKEN),
  };
}
