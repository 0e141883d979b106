/**
 * The HTTP limits both our servers apply (the api and the game host's agent), read from the
 * environment with the servers' shared readers (env.ts): how long a client may take to send a
 * request's headers and its whole body (the Fastify/Node server options below), and how many
 * requests a caller may make per window (applied by rate-limit.ts). docs/api.md, "Rate limits and
 * timeouts", lists the variables and defaults.
 *
 * Why the timeouts are set this way: Node's http server checks `headersTimeout` and
 * `requestTimeout` only every `connectionsCheckingInterval` (30 s by default), and its native
 * check takes the larger of the two as the request deadline (it swaps them when headersTimeout >
 * requestTimeout). Fastify's `requestTimeout: 30_000` beside Node's default headersTimeout of 60 s
 * therefore meant a 60 s deadline looked at every 30 s: a body that stalled stayed open up to 90 s.
 * Here headersTimeout ≤ requestTimeout always (the loader refuses the opposite), both go to the
 * server's constructor, and the check runs every second. Node starts the header clock when a
 * connection opens, so one that sends nothing is closed after headersTimeout too.
 */
import type { ServerOptions } from 'node:http';
import { envInt, envList, envString, type Env } from './env';

export interface ServerTimeouts {
  /** <PREFIX>_HEADERS_TIMEOUT_MS: from a connection's first byte (or its opening) to the end of the request headers. */
  headersTimeoutMs: number;
  /** <PREFIX>_REQUEST_TIMEOUT_MS: from the first byte to the end of the body (≥ the headers timeout). */
  requestTimeoutMs: number;
  /** <PREFIX>_TIMEOUT_CHECK_MS: how often the server looks for requests past those deadlines. */
  checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 15_000, checkIntervalMs: 1_000 };

/** The timeouts of one server from `<prefix>_HEADERS_TIMEOUT_MS`, `_REQUEST_TIMEOUT_MS`, `_TIMEOUT_CHECK_MS`. */
export function loadServerTimeouts(env: Env, prefix: string): ServerTimeouts {
  const d = DEFAULT_SERVER_TIMEOUTS;
  const timeouts: ServerTimeouts = {
    headersTimeoutMs: envInt(env, `${prefix}_HEADERS_TIMEOUT_MS`, d.headersTimeoutMs, 100, 600_000),
    requestTimeoutMs: envInt(env, `${prefix}_REQUEST_TIMEOUT_MS`, d.requestTimeoutMs, 100, 600_000),
    checkIntervalMs: envInt(env, `${prefix}_TIMEOUT_CHECK_MS`, d.checkIntervalMs, 50, 60_000),
  };
  checkServerTimeouts(timeouts, prefix);
  return timeouts;
}

function checkServerTimeouts(t: ServerTimeouts, prefix: string): void {
  if (t.headersTimeoutMs > t.requestTimeoutMs) {
    // Node would silently use the larger value for both deadlines (see the header comment).
    throw new Error(`${prefix}_HEADERS_TIMEOUT_MS (${t.headersTimeoutMs}) must not exceed ${prefix}_REQUEST_TIMEOUT_MS (${t.requestTimeoutMs})`);
  }
}

/**
 * Spread into a Fastify constructor's options: Node's server gets the deadlines and the checking
 * interval at construction (`http`), and Fastify's `requestTimeout`, which it assigns to the
 * server afterwards, says the same.
 */
export function serverTimeoutOptions(t: ServerTimeouts): { requestTimeout: number; http: ServerOptions } {
  checkServerTimeouts(t, 'server');
  return {
    requestTimeout: t.requestTimeoutMs,
    http: { headersTimeout: t.headersTimeoutMs, requestTimeout: t.requestTimeoutMs, connectionsCheckingInterval: t.checkIntervalMs },
  };
}

/** Requests per window of each budget (rate-limit.ts says which routes spend which). */
export interface RateLimits {
  /** <PREFIX>_WINDOW_MS: the window every budget counts in. */
  windowMs: number;
  /** <PREFIX>_USER_MAX: per signed-in user on authenticated routes (the api only). */
  userMax: number;
  /** <PREFIX>_PUBLIC_MAX: per client address on routes without a credential; also 401 answers per address. */
  publicMax: number;
  /** <PREFIX>_INTERNAL_MAX: per address on routes for our own services (shared secrets, webhooks, signalling). */
  internalMax: number;
  /** <PREFIX>_ALLOW: comma-separated client addresses never limited (e.g. the web server's, which renders pages from the api). */
  allow: string[];
}

export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 60_000, userMax: 600, publicMax: 600, internalMax: 12_000, allow: [] };

/** The budgets of one server from `<prefix>_WINDOW_MS`, `_USER_MAX`, `_PUBLIC_MAX`, `_INTERNAL_MAX`, `_ALLOW`. */
export function loadRateLimits(env: Env, prefix: string, defaults: RateLimits = DEFAULT_RATE_LIMITS): RateLimits {
  return {
    windowMs: envInt(env, `${prefix}_WINDOW_MS`, defaults.windowMs, 1_000, 3_600_000),
    userMax: envInt(env, `${prefix}_USER_MAX`, defaults.userMax, 1, 100_000_000),
    publicMax: envInt(env, `${prefix}_PUBLIC_MAX`, defaults.publicMax, 1, 100_000_000),
    internalMax: envInt(env, `${prefix}_INTERNAL_MAX`, defaults.internalMax, 1, 100_000_000),
    allow: envList(env[`${prefix}_ALLOW`]) ?? defaults.allow,
  };
}

/**
 * A TRUST_PROXY-style setting for Fastify's `trustProxy`, so a client's address (the per-address
 * budgets' key) is the one the proxy saw: unset → false (clients connect directly); otherwise a
 * comma-separated list of the proxies' addresses or CIDR ranges (proxy-addr also knows
 * `loopback`, `linklocal`, `uniquelocal`). `true` (believe any X-Forwarded-For) and hop counts
 * are refused: a client could then pick its own key (Fastify 5 ignores hop counts anyway).
 */
export function loadTrustProxy(env: Env, name: string): false | string[] {
  const raw = envString(env[name]);
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true' || /^\d+$/.test(raw)) throw new Error(`${name} must list the proxies' addresses or CIDR ranges (got "${raw}")`);
  return envList(raw) ?? false;
}
