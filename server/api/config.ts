/**
 * Configuration of the API server. Every value comes from the environment with a safe local
 * default (loopback addresses, the embedded PostgreSQL, the demo Firebase project), so a fresh
 * clone runs with no setup; tests pass their own values to buildApp instead.
 */
import { envInt, envList, envString, type Env } from '../shared/env';
import { metricsToken } from '../shared/metrics';
import { sentryDsn } from '../shared/sentry';
import { loadRateLimits, loadServerTimeouts, loadTrustProxy, type RateLimits, type ServerTimeouts } from '../shared/http-limits';
import { loadPaymentsConfig, type PaymentsConfig } from './services/payments/config';
import { loadSessionConfig, type SessionConfig } from './services/sessionConfig';

export interface ApiConfig {
  /** API_HOST: interface to listen on. Loopback by default; set 0.0.0.0 only behind a proxy. */
  host: string;
  /** API_PORT */
  port: number;
  /** DATABASE_URL */
  databaseUrl: string;
  /**
   * DATABASE_LISTEN_URL: the signal bus's LISTEN/NOTIFY connection (services/signalBus.ts), straight
   * to PostgreSQL when DATABASE_URL goes through a transaction pooler; unset: DATABASE_URL.
   */
  databaseListenUrl?: string;
  /** Optional schema put first on the search_path (tests use one per run). */
  dbSchema?: string;
  /** DATABASE_POOL_MAX: connections per API process. */
  dbPoolMax: number;
  /** How long a query, a statement and a new connection may take (docs/reliability.md). */
  dbTimeouts: DatabaseTimeouts;
  /** Run pending migrations while the app starts (main and tests: yes). */
  runMigrations: boolean;
  /** STATS_RETENTION_DAYS: the play page's WebRTC stats are kept this long (30); 0 keeps them all (plugins/retention.ts). */
  statsRetentionDays: number;
  /** API_BODY_LIMIT: largest accepted request body, in bytes. */
  bodyLimit: number;
  /** WEB_ORIGIN: comma-separated origins allowed by CORS. */
  webOrigins: string[];
  /** FIREBASE_PROJECT_ID: the project whose ID tokens are accepted. */
  firebaseProjectId: string;
  /**
   * FIREBASE_AUTH_EMULATOR_HOST ("host:port"). When set, firebase-admin accepts unsigned emulator
   * tokens, so it is refused in production (see loadConfig).
   */
  authEmulatorHost?: string;
  /** LOG_LEVEL */
  logLevel: string;
  /**
   * AUTH_REVOCATION_CHECK_MS: a user's revocation and disabled state is looked up at most this
   * often (60 s); a "sign out everywhere" takes effect within it. 0: on every call.
   */
  authRevocationCheckMs: number;
  /** METRICS_TOKEN: with it, /metrics needs `Authorization: Bearer <token>`; without, loopback only. */
  metricsToken?: string;
  /** SENTRY_DSN (else NEXT_PUBLIC_SENTRY_DSN): 5xx answers reported to Sentry; unset: off. */
  sentryDsn?: string;
  /** Game sessions, scheduler, hosts, signalling (services/sessionConfig.ts, docs/sessions.md). */
  sessions: SessionConfig;
  /** Plans, subscriptions, the payment processor (services/payments/config.ts, docs/purchase.md). */
  payments: PaymentsConfig;
  /** API_RATE_LIMIT_*: requests per window per user / address (server/shared/http-limits.ts, docs/api.md). */
  rateLimit: RateLimits;
  /** API_HEADERS_TIMEOUT_MS, API_REQUEST_TIMEOUT_MS, API_TIMEOUT_CHECK_MS: slow senders are cut off. */
  timeouts: ServerTimeouts;
  /** API_TRUST_PROXY: the proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client; false: none. */
  trustProxy: false | string[];
}

/**
 * The pool's time limits (db/pool.ts), so a stalled or unreachable PostgreSQL answers requests
 * 503 service_unavailable within a few seconds instead of holding them (docs/reliability.md).
 */
export interface DatabaseTimeouts {
  /** DATABASE_STATEMENT_TIMEOUT_MS: the server cancels a statement running longer (0 = no limit). */
  statementTimeoutMs: number;
  /**
   * DATABASE_QUERY_TIMEOUT_MS: the client gives up on an answer after this long and closes the
   * connection (a stalled server cancels nothing itself); above the statement timeout, so a slow
   * statement is cancelled cleanly by the server first (0 = no limit).
   */
  queryTimeoutMs: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: waiting for a pooled or a new connection. */
  connectTimeoutMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementTimeoutMs: 4_000, queryTimeoutMs: 5_000, connectTimeoutMs: 3_000 };

/** The pool's time limits from the environment (DATABASE_*_TIMEOUT_MS), defaults above. */
export function loadDatabaseTimeouts(env: Env = process.env): DatabaseTimeouts {
  const d = DEFAULT_DATABASE_TIMEOUTS;
  return {
    statementTimeoutMs: envInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', d.statementTimeoutMs, 0, 3_600_000),
    queryTimeoutMs: envInt(env, 'DATABASE_QUERY_TIMEOUT_MS', d.queryTimeoutMs, 0, 3_600_000),
    connectTimeoutMs: envInt(env, 'DATABASE_CONNECT_TIMEOUT_MS', d.connectTimeoutMs, 100, 600_000),
  };
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:54329/yumecast';
export const DEFAULT_WEB_ORIGINS = ['http://127.0.0.1:3000', 'http://localhost:3000'];
export const DEFAULT_FIREBASE_PROJECT_ID = 'demo-yumecast';
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export function loadConfig(env: Env = process.env): ApiConfig {
  const authEmulatorHost = envString(env.FIREBASE_AUTH_EMULATOR_HOST);
  if (authEmulatorHost && env.NODE_ENV === 'production') {
    // The emulator path skips token signature checks: in production it would accept forged tokens.
    throw new Error('FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV=production');
  }
  const webOrigins = envList(env.WEB_ORIGIN) ?? DEFAULT_WEB_ORIGINS;
  return {
    host: envString(env.API_HOST) ?? '127.0.0.1',
    port: envInt(env, 'API_PORT', 8080, 0, 65535),
    databaseUrl: envString(env.DATABASE_URL) ?? DEFAULT_DATABASE_URL,
    databaseListenUrl: envString(env.DATABASE_LISTEN_URL),
    dbPoolMax: envInt(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    dbTimeouts: loadDatabaseTimeouts(env),
    runMigrations: true,
    statsRetentionDays: envInt(env, 'STATS_RETENTION_DAYS', 30, 0, 36_500),
    bodyLimit: envInt(env, 'API_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1, 1024 * 1024 * 1024),
    webOrigins,
    firebaseProjectId: envString(env.FIREBASE_PROJECT_ID) ?? DEFAULT_FIREBASE_PROJECT_ID,
    authEmulatorHost,
    logLevel: envString(env.LOG_LEVEL) ?? 'info',
    authRevocationCheckMs: envInt(env, 'AUTH_REVOCATION_CHECK_MS', 60_000, 0, 3_600_000),
    metricsToken: metricsToken(env),
    sentryDsn: sentryDsn(env),
    sessions: loadSessionConfig(env),
    payments: loadPaymentsConfig(env, webOrigins),
    rateLimit: loadRateLimits(env, 'API_RATE_LIMIT'),
    timeouts: loadServerTimeouts(env, 'API'),
    trustProxy: loadTrustProxy(env, 'API_TRUST_PROXY'),
  };
}

/** The URL with its password replaced, for log lines and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
