/**
 * Ports, addresses and secrets of the local stack, one place. Everything comes from the
 * environment with a safe local default; everything listens on loopback.
 * `npm test` uses its own set (TEST_PORTS) so it can run beside `npm start`; the multi-node stack
 * (`npm run cluster`, scripts/cluster/) a third set (CLUSTER_*), beside both.
 * Shared secrets (the api's internal token, the payments sandbox's keys) are generated per
 * stack start unless the environment sets them (stackSecrets).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FUNCTIONS_REGION } from '../../functions/src/region';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export type StackMode = 'dev' | 'test' | 'cluster';

export interface StackConfig {
  mode: StackMode;
  host: string;
  webPort: number;
  apiPort: number;
  pgPort: number;
  authPort: number;
  /** The Firebase Functions emulator (same firebase-tools process as the Auth emulator). */
  functionsPort: number;
  /** The payments sandbox process (server/payments/sandbox/main.ts): its API and hosted pages. */
  paymentsSandboxPort: number;
  hostPort: number;
  /** The game host's page server (its runtimes' static origin). */
  hostPagePort: number;
  projectId: string;
  database: string;
  /** Next.js build folder: separate for tests because NEXT_PUBLIC_* values are built in. */
  distDir: string;
  /** PostgreSQL data folder. Tests start from an empty one every run. */
  pgDataDir: string;
  runDir: string;
}

const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);

/**
 * TEST_SLOT=1..5 gives a test stack of its own (ports + 1000 × slot, its own build, database and
 * run folder), so that two developers' test runs on one machine do not collide. CI never sets it.
 */
export function testSlot(env = process.env): number {
  const n = num(env.TEST_SLOT, 0);
  return n >= 1 && n <= 5 ? n : 0;
}

/** Default ports of each mode (the cluster's web and api ports are its HAProxy frontends). */
const DEFAULT_PORTS: Record<StackMode, { web: number; api: number; pg: number; auth: number; functions: number; sandbox: number; host: number; hostPage: number }> = {
  dev: { web: 3000, api: 8080, pg: 54329, auth: 9099, functions: 5001, sandbox: 8300, host: 8090, hostPage: 8091 },
  test: { web: 3100, api: 8180, pg: 54339, auth: 9199, functions: 5101, sandbox: 8380, host: 8190, hostPage: 8191 },
  cluster: { web: 3200, api: 8280, pg: 54349, auth: 9299, functions: 5201, sandbox: 8580, host: 8290, hostPage: 8291 },
};

const PREFIX: Record<StackMode, string> = { dev: '', test: 'TEST_', cluster: 'CLUSTER_' };
const DATABASE: Record<StackMode, string> = { dev: 'yumecast', test: 'yumecast_test', cluster: 'yumecast' };
const DIST_DIR: Record<StackMode, string> = { dev: '.next', test: '.next-test', cluster: '.next-cluster' };
const PG_DATA: Record<StackMode, string> = { dev: 'postgres', test: 'postgres-test', cluster: 'postgres-cluster' };

export function stackConfig(mode: StackMode, env = process.env): StackConfig {
  const prefix = PREFIX[mode];
  const slot = mode === 'test' ? testSlot(env) : 0;
  const off = slot * 1000;
  const suffix = slot ? `-${slot}` : '';
  const d = DEFAULT_PORTS[mode];
  return {
    mode,
    host: env.HOST || '127.0.0.1',
    webPort: num(env[`${prefix}WEB_PORT`], d.web + off),
    apiPort: num(env[`${prefix}API_PORT`], d.api + off),
    pgPort: num(env[`${prefix}PGPORT_LOCAL`], d.pg + off),
    authPort: num(env[`${prefix}AUTH_EMULATOR_PORT`], d.auth + off),
    functionsPort: num(env[`${prefix}FUNCTIONS_EMULATOR_PORT`], d.functions + off),
    paymentsSandboxPort: num(env[`${prefix}PAYMENTS_SANDBOX_PORT`], d.sandbox + off),
    hostPort: num(env[`${prefix}HOST_AGENT_PORT`], d.host + off),
    hostPagePort: num(env[`${prefix}HOST_PAGE_PORT`], d.hostPage + off),
    projectId: env.FIREBASE_PROJECT_ID || 'demo-yumecast',
    database: DATABASE[mode],
    distDir: `${DIST_DIR[mode]}${suffix}`,
    pgDataDir: path.join(REPO_ROOT, '.data', `${PG_DATA[mode]}${suffix}`),
    runDir: path.join(REPO_ROOT, '.run', `${mode}${suffix}`),
  };
}

export function urls(c: StackConfig) {
  return {
    web: `http://${c.host === '127.0.0.1' ? 'localhost' : c.host}:${c.webPort}`,
    api: `http://${c.host}:${c.apiPort}`,
    auth: `${c.host}:${c.authPort}`,
    /** host:port, like `auth` (what connectFunctionsEmulator takes). */
    functions: `${c.host}:${c.functionsPort}`,
    paymentsSandbox: `http://${c.host}:${c.paymentsSandboxPort}`,
    gameHost: `http://${c.host}:${c.hostPort}`,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${c.pgPort}/${c.database}`,
  };
}

export interface StackSecrets {
  /** INTERNAL_API_TOKEN: the api's secret for internal callers (the function), ≥ 32 characters. */
  internalApiToken: string;
  /** PAYMENTS_SANDBOX_SECRET_KEY: the api's key for the sandbox's /v1 API. */
  paymentsSecretKey: string;
  /** PAYMENTS_WEBHOOK_SECRET: the sandbox signs webhooks with it, the api verifies. */
  paymentsWebhookSecret: string;
}

const random = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** New random secrets for one stack run; values set in the environment win. */
export function stackSecrets(base = process.env): StackSecrets {
  return {
    internalApiToken: base.INTERNAL_API_TOKEN?.trim() || random(),
    paymentsSecretKey: base.PAYMENTS_SANDBOX_SECRET_KEY?.trim() || `sk_test_${random(24)}`,
    paymentsWebhookSecret: base.PAYMENTS_WEBHOOK_SECRET?.trim() || `whsec_${random(24)}`,
  };
}

/**
 * The web's origins (both spellings of loopback), for CORS and the sandbox's frame allow-list,
 * and `WEB_EXTRA_ORIGINS` (comma-separated loopback origins): a second web served beside the
 * stack's against the same api, as the web benches compare two builds side by side
 * (bench/lighthouse.ts). Anything off loopback is refused: the local stack serves this machine.
 */
export function webOrigins(c: StackConfig, base: NodeJS.ProcessEnv = process.env): string {
  const extra = (base.WEB_EXTRA_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const o of extra) {
    if (!/^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}$/.test(o)) throw new Error(`WEB_EXTRA_ORIGINS: ${o} is not a loopback origin like http://127.0.0.1:3300`);
  }
  return [urls(c).web, `http://127.0.0.1:${c.webPort}`, ...extra].join(',');
}

/** The environment every service of the stack sees. */
export function stackEnv(c: StackConfig, base = process.env, secrets: StackSecrets = stackSecrets(base)): NodeJS.ProcessEnv {
  const u = urls(c);
  return {
    ...base,
    NEXT_TELEMETRY_DISABLED: '1',
    CI: base.CI ?? 'true',
    METADATA_SERVER_DETECTION: 'none',
    FIREBASE_PROJECT_ID: c.projectId,
    GCLOUD_PROJECT: c.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: u.auth,
    DATABASE_URL: u.databaseUrl,
    API_HOST: c.host,
    API_PORT: String(c.apiPort),
    WEB_ORIGIN: webOrigins(c, base),
    API_URL: u.api,
    API_PUBLIC_URL: base.API_PUBLIC_URL || u.api,
    HOST_AGENT_HOST: c.host,
    HOST_AGENT_PORT: String(c.hostPort),
    HOST_PAGE_PORT: String(c.hostPagePort),
    HOST_ID: base.HOST_ID || `local-${c.mode}`,
    NEXT_DIST_DIR: c.distDir,
    NEXT_PUBLIC_SITE_URL: base.NEXT_PUBLIC_SITE_URL || u.web,
    NEXT_PUBLIC_API_URL: base.NEXT_PUBLIC_API_URL || u.api,
    NEXT_PUBLIC_FIREBASE_PROJECT_ID: c.projectId,
    NEXT_PUBLIC_AUTH_EMULATOR_HOST: u.auth,
    // The callable functions: the api's internal route and its token (the function forwards to
    // it), the emulator's address for servers and tests, and for the browser's
    // connectFunctionsEmulator (host:port) with the functions' region.
    API_INTERNAL_URL: u.api,
    INTERNAL_API_TOKEN: secrets.internalApiToken,
    FUNCTIONS_EMULATOR_HOST: u.functions,
    NEXT_PUBLIC_FUNCTIONS_EMULATOR_HOST: u.functions,
    NEXT_PUBLIC_FUNCTIONS_REGION: FUNCTIONS_REGION,
    // The api's payment processor: the sandbox process of this stack (docs/payments-processor.md).
    PAYMENTS_PROCESSOR: base.PAYMENTS_PROCESSOR || 'sandbox',
    PAYMENTS_SANDBOX_URL: u.paymentsSandbox,
    PAYMENTS_SANDBOX_SECRET_KEY: secrets.paymentsSecretKey,
    PAYMENTS_WEBHOOK_SECRET: secrets.paymentsWebhookSecret,
    // A slotted test stack keeps its runtimes' profiles in its own run folder, so its leftover
    // check can tell its processes from another slot's.
    ...(c.mode === 'test' && testSlot(base) ? { HOST_TMP_DIR: path.join(c.runDir, 'host-tmp') } : {}),
    // The test stack's and the cluster's clients (Playwright, suites) all call from one address:
    // HTTP rate limits out of their way (docs/api.md "Rate limits and timeouts"; the limits have
    // their own tests).
    ...(c.mode !== 'dev'
      ? {
          API_RATE_LIMIT_USER_MAX: '100000000',
          API_RATE_LIMIT_PUBLIC_MAX: '100000000',
          API_RATE_LIMIT_INTERNAL_MAX: '100000000',
          HOST_HTTP_RATE_LIMIT_PUBLIC_MAX: '100000000',
          HOST_HTTP_RATE_LIMIT_INTERNAL_MAX: '100000000',
        }
      : {}),
  };
}
