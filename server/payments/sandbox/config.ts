/**
 * Configuration of the sandbox payment processor (a separate process: server/payments/sandbox/
 * main.ts), read from the environment with local defaults so `npm start` needs no setup.
 * Tests pass their own values to startSandbox() instead. The variables are listed in
 * docs/payments-processor.md.
 */
import { envInt, envList, envString, type Env } from '../../shared/env';

export interface SandboxConfig {
  /** PAYMENTS_SANDBOX_HOST: loopback only (127.0.0.1, ::1 or localhost). */
  host: string;
  /** PAYMENTS_SANDBOX_PORT (8300; 0 picks a free port). */
  port: number;
  /**
   * PAYMENTS_SANDBOX_PUBLIC_URL: the origin browsers load the card form and the 3-D Secure page
   * from (default http://<host>:<port>, filled in once the port is known).
   */
  publicUrl?: string;
  /** DATABASE_URL: the same server as our api, but the sandbox keeps to its own schema. */
  databaseUrl: string;
  /** PAYMENTS_SANDBOX_SCHEMA (payments_sandbox): the sandbox's tables, created by its own migration. */
  schema: string;
  /** PAYMENTS_SANDBOX_SECRET_KEY: the API key (Authorization: Bearer …) our api uses. */
  secretKey: string;
  /** PAYMENTS_WEBHOOK_SECRET: signs webhooks (Stripe-Signature); the receiver verifies with it. */
  webhookSecret: string;
  /** PAYMENTS_WEBHOOK_URL: where events are POSTed; unset = recorded only (GET /v1/events). */
  webhookUrl?: string;
  /**
   * PAYMENTS_SANDBOX_ALLOWED_ORIGINS (default WEB_ORIGIN, else the local web's origins): pages
   * that may frame the hosted form and receive its postMessage results.
   */
  allowedOrigins: string[];
  /** PAYMENTS_SANDBOX_RETRY_DAYS (1,3,5): retries of a failed renewal, in days after the first failure; then canceled. */
  retryScheduleSeconds: number[];
  /** An incomplete subscription's first invoice stays payable this long (Stripe: 23 hours). */
  incompleteExpirySeconds: number;
  /** PAYMENTS_SANDBOX_TICK_MS (5000): how often renewals due on the real clock are run; 0 = only on clock advance. */
  tickMs: number;
  /** PAYMENTS_SANDBOX_WEBHOOK_RETRY_MS (2000): first webhook retry delay, doubled each time up to maxDelay. */
  webhookRetryBaseMs: number;
  webhookRetryMaxDelayMs: number;
  /** PAYMENTS_SANDBOX_WEBHOOK_ATTEMPTS (12): attempts before a delivery is given up. */
  webhookMaxAttempts: number;
  /** LOG_LEVEL (info). */
  logLevel: string;
}

export const DEFAULT_SANDBOX_PORT = 8300;
export const DEFAULT_SANDBOX_SCHEMA = 'payments_sandbox';
/** Local-only defaults; production refuses them (see loadSandboxConfig). */
export const DEFAULT_SANDBOX_SECRET_KEY = 'sk_test_sandbox_local';
export const DEFAULT_SANDBOX_WEBHOOK_SECRET = 'whsec_sandbox_local';
export const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:54329/yumecast';
export const DEFAULT_ALLOWED_ORIGINS = ['http://127.0.0.1:3000', 'http://localhost:3000'];
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** "http://host:port" without a path or a trailing slash; throws on anything else. */
export function normaliseOrigin(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: "${value}"`);
  return url.origin;
}

export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const host = envString(env.PAYMENTS_SANDBOX_HOST) ?? '127.0.0.1';
  const secretKey = envString(env.PAYMENTS_SANDBOX_SECRET_KEY) ?? DEFAULT_SANDBOX_SECRET_KEY;
  const webhookSecret = envString(env.PAYMENTS_WEBHOOK_SECRET) ?? DEFAULT_SANDBOX_WEBHOOK_SECRET;
  if (env.NODE_ENV === 'production' && (secretKey === DEFAULT_SANDBOX_SECRET_KEY || webhookSecret === DEFAULT_SANDBOX_WEBHOOK_SECRET)) {
    throw new Error('the payments sandbox is for local use: with NODE_ENV=production set PAYMENTS_SANDBOX_SECRET_KEY and PAYMENTS_WEBHOOK_SECRET');
  }
  const retryDays = (envList(env.PAYMENTS_SANDBOX_RETRY_DAYS) ?? ['1', '3', '5']).map((day) => {
    const value = Number(day);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`PAYMENTS_SANDBOX_RETRY_DAYS must be positive numbers (got "${day}")`);
    return Math.round(value * 86_400);
  });
  const config: SandboxConfig = {
    host,
    port: envInt(env, 'PAYMENTS_SANDBOX_PORT', DEFAULT_SANDBOX_PORT, 0, 65535),
    publicUrl: envString(env.PAYMENTS_SANDBOX_PUBLIC_URL),
    databaseUrl: envString(env.DATABASE_URL) ?? DEFAULT_DATABASE_URL,
    schema: envString(env.PAYMENTS_SANDBOX_SCHEMA) ?? DEFAULT_SANDBOX_SCHEMA,
    secretKey,
    webhookSecret,
    webhookUrl: envString(env.PAYMENTS_WEBHOOK_URL),
    allowedOrigins: (envList(env.PAYMENTS_SANDBOX_ALLOWED_ORIGINS) ?? envList(env.WEB_ORIGIN) ?? DEFAULT_ALLOWED_ORIGINS).map(normaliseOrigin),
    retryScheduleSeconds: retryDays,
    incompleteExpirySeconds: 23 * 3600,
    tickMs: envInt(env, 'PAYMENTS_SANDBOX_TICK_MS', 5_000, 0, 3_600_000),
    webhookRetryBaseMs: envInt(env, 'PAYMENTS_SANDBOX_WEBHOOK_RETRY_MS', 2_000, 1, 3_600_000),
    webhookRetryMaxDelayMs: 10 * 60_000,
    webhookMaxAttempts: envInt(env, 'PAYMENTS_SANDBOX_WEBHOOK_ATTEMPTS', 12, 1, 100),
    logLevel: envString(env.LOG_LEVEL) ?? 'info',
  };
  validateSandboxConfig(config);
  return config;
}

/** Checks a full config (from env or from a test's options). */
export function validateSandboxConfig(config: SandboxConfig): void {
  if (!LOOPBACK.has(config.host)) {
    throw new Error(`PAYMENTS_SANDBOX_HOST must be a loopback address (127.0.0.1, ::1, localhost), not "${config.host}"`);
  }
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(config.schema)) throw new Error(`PAYMENTS_SANDBOX_SCHEMA is not a plain identifier: "${config.schema}"`);
  if (config.webhookUrl) new URL(config.webhookUrl);
  if (config.publicUrl) normaliseOrigin(config.publicUrl);
}
