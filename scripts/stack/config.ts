/**
 * Ports, addresses and secrets of the local stack, one place. Everything comes from the
 * environment with a safe local default; everything listens on loopback.
 * `npm test` uses its own set (TEST_PORTS) so it can run beside `npm start`.
 * Shared secrets (the api's internal token, the payments sandbox's keys) are generated per
 * stack start unless the environment sets them (stackSecrets).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FUNCTIONS_REGION } from '../../functions/src/region';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface StackConfig {
  mode: 'dev' | 'test';
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

export function stackConfig(mode: 'dev' | 'test', env = process.env): StackConfig {
  const test = mode === 'test';
  const prefix = test ? 'TEST_' : '';
  const slot = test ? testSlot(env) : 0;
  const off = slot * 1000;
  const suffix = slot ? `-${slot}` : '';
  return {
    mode,
    host: env.HOST || '127.0.0.1',
    webPort: num(env[`${prefix}WEB_PORT`], test ? 3100 + off : 3000),
    apiPort: num(env[`${prefix}API_PORT`], test ? 8180 + off : 8080),
    pgPort: num(env[`${prefix}PGPORT_LOCAL`], test ? 54339 + off : 54329),
    authPort: num(env[`${prefix}AUTH_EMULATOR_PORT`], test ? 9199 + off : 9099),
    functionsPort: num(env[`${prefix}FUNCTIONS_EMULATOR_PORT`], test ? 5101 + off : 5001),
    paymentsSandboxPort: num(env[`${prefix}PAYMENTS_SANDBOX_PORT`], test ? 8380 + off : 8300),
    hostPort: num(env[`${prefix}HOST_AGENT_PORT`], test ? 8190 + off : 8090),
    hostPagePort: num(env[`${prefix}HOST_PAGE_PORT`], test ? 8191 + off : 8091),
    projectId: env.FIREBASE_PROJECT_ID || 'demo-yumecast',
    database: test ? 'yumecast_test' : 'yumecast',
    distDir: test ? `.next-test${suffix}` : '.next',
    pgDataDir: path.join(REPO_ROOT, '.data', test ? `postgres-test${suffix}` : 'postgres'),
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

/** The web's origins (both spellings of loopback), for CORS and the sandbox's frame allow-list. */
export function webOrigins(c: StackConfig): string {
  return `${urls(c).web},http://127.0.0.1:${c.webPort}`;
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
    WEB_ORIGIN: webOrigins(c),
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
    // The test stack's clients (Playwright, suites) all call from one address: HTTP rate limits
    // out of their way (docs/api.md "Rate limits and timeouts"; the limits have their own tests).
    ...(c.mode === 'test'
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
