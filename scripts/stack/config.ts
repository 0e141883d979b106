/**
 * Ports, addresses and secrets of the local stack, one place. Everything comes from the
 * environment with a safe local default; everything listens on loopback.
 * `npm test` uses its own set (TEST_PORTS) so it can run beside `npm start`.
 */
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface StackConfig {
  mode: 'dev' | 'test';
  host: string;
  webPort: number;
  apiPort: number;
  pgPort: number;
  authPort: number;
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
    gameHost: `http://${c.host}:${c.hostPort}`,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${c.pgPort}/${c.database}`,
  };
}

/** The environment every service of the stack sees. */
export function stackEnv(c: StackConfig, base = process.env): NodeJS.ProcessEnv {
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
    WEB_ORIGIN: `${u.web},http://127.0.0.1:${c.webPort}`,
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
    // A slotted test stack keeps its runtimes' profiles in its own run folder, so its leftover
    // check can tell its processes from another slot's.
    ...(c.mode === 'test' && testSlot(base) ? { HOST_TMP_DIR: path.join(c.runDir, 'host-tmp') } : {}),
  };
}
