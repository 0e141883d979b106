/**
 * The one place that picks the payment processor: `createProcessor(env)` returns the sandbox
 * client (PAYMENTS_PROCESSOR=sandbox, the default locally) or the Stripe implementation
 * (PAYMENTS_PROCESSOR=stripe). The api and the Firebase function call this and then talk only to
 * the `PaymentProcessor` interface. With NODE_ENV=production the choice must be explicit, and
 * the sandbox's local default secrets are refused.
 */
import { envInt, envString, type Env } from '../shared/env';
import type { PaymentProcessor } from './processor';
import { SandboxProcessor, type SandboxClientOptions } from './sandbox/client';
import { DEFAULT_SANDBOX_PORT, DEFAULT_SANDBOX_SECRET_KEY, DEFAULT_SANDBOX_WEBHOOK_SECRET } from './sandbox/config';
import { loadStripeConfig } from './stripe/config';
import { StripeProcessor } from './stripe/processor';

export * from './processor';

/** Where the api finds the sandbox: PAYMENTS_SANDBOX_URL, else 127.0.0.1 on PAYMENTS_SANDBOX_PORT. */
export function sandboxClientOptions(env: Env = process.env): SandboxClientOptions {
  const port = envInt(env, 'PAYMENTS_SANDBOX_PORT', DEFAULT_SANDBOX_PORT, 1, 65535);
  const secretKey = envString(env.PAYMENTS_SANDBOX_SECRET_KEY) ?? DEFAULT_SANDBOX_SECRET_KEY;
  const webhookSecret = envString(env.PAYMENTS_WEBHOOK_SECRET) ?? DEFAULT_SANDBOX_WEBHOOK_SECRET;
  if (env.NODE_ENV === 'production' && (secretKey === DEFAULT_SANDBOX_SECRET_KEY || webhookSecret === DEFAULT_SANDBOX_WEBHOOK_SECRET)) {
    throw new Error('PAYMENTS_PROCESSOR=sandbox with NODE_ENV=production needs PAYMENTS_SANDBOX_SECRET_KEY and PAYMENTS_WEBHOOK_SECRET');
  }
  return { baseUrl: envString(env.PAYMENTS_SANDBOX_URL) ?? `http://127.0.0.1:${port}`, secretKey, webhookSecret };
}

export function createProcessor(env: Env = process.env): PaymentProcessor {
  const choice = envString(env.PAYMENTS_PROCESSOR)?.toLowerCase();
  if (!choice && env.NODE_ENV === 'production') {
    throw new Error('set PAYMENTS_PROCESSOR (stripe in production) when NODE_ENV=production');
  }
  switch (choice ?? 'sandbox') {
    case 'sandbox':
      return new SandboxProcessor(sandboxClientOptions(env));
    case 'stripe':
      return new StripeProcessor(loadStripeConfig(env));
    default:
      throw new Error(`PAYMENTS_PROCESSOR must be "sandbox" or "stripe" (got "${choice}")`);
  }
}
