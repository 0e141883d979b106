/**
 * Configuration of the Stripe implementation, from the environment (production):
 *   STRIPE_SECRET_KEY       sk_live_… / sk_test_… (server only)
 *   STRIPE_PUBLISHABLE_KEY  pk_live_… / pk_test_… (handed to the web page for the Payment Element)
 *   STRIPE_WEBHOOK_SECRET   whsec_… of the webhook endpoint that points at our api
 *   STRIPE_PRICE_IDS        our plan key → Stripe Price id: "standard=price_123,premium=price_456"
 *   STRIPE_API_BASE         optional: another API origin (a local stub such as stripe-mock)
 * Every value is checked at start, so a missing one stops the process with its name.
 */
import { envString, type Env } from '../../shared/env';

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Our plan key → Stripe Price id. */
  priceIds: Record<string, string>;
  /** SDK overrides (tests point the SDK at a local recorded-response server). */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
  /** Webhook signature age limit in seconds (Stripe's default 300). */
  toleranceSeconds?: number;
}

export function parsePriceIds(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of value.split(',').map((item) => item.trim()).filter(Boolean)) {
    const [plan, price] = pair.split('=').map((part) => part?.trim());
    if (!plan || !price || !/^price_[A-Za-z0-9]+$/.test(price)) {
      throw new Error(`STRIPE_PRICE_IDS must look like "standard=price_123,premium=price_456" (bad entry "${pair}")`);
    }
    out[plan] = price;
  }
  if (Object.keys(out).length === 0) throw new Error('STRIPE_PRICE_IDS names no plan');
  return out;
}

export function loadStripeConfig(env: Env = process.env): StripeConfig {
  const need = (name: string, prefix: RegExp): string => {
    const value = envString(env[name]);
    if (!value) throw new Error(`${name} must be set when PAYMENTS_PROCESSOR=stripe`);
    if (!prefix.test(value)) throw new Error(`${name} does not look like a Stripe value (${prefix.source})`);
    return value;
  };
  const config: StripeConfig = {
    secretKey: need('STRIPE_SECRET_KEY', /^(sk|rk)_(live|test)_/),
    publishableKey: need('STRIPE_PUBLISHABLE_KEY', /^pk_(live|test)_/),
    webhookSecret: need('STRIPE_WEBHOOK_SECRET', /^whsec_/),
    priceIds: parsePriceIds(need('STRIPE_PRICE_IDS', /=/)),
  };
  const live = config.secretKey.includes('_live_');
  if (live !== config.publishableKey.startsWith('pk_live_')) {
    throw new Error('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be live or both be test keys');
  }
  const base = envString(env.STRIPE_API_BASE);
  if (base) {
    const url = new URL(base);
    config.api = {
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    };
  }
  return config;
}
