/**
 * Helpers for the session integration tests: an app with test credentials, shrunk timings and a
 * temporary screenshot folder (one per test file: appPerFile); bearer clients for emulator users;
 * polling.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ApiConfig } from '../config';
import { loadSessionConfig, type SessionConfig } from '../services/sessionConfig';
import {
  deleteEmulatorUser,
  signInWithEmailLinkUser,
  signInWithTwitterUser,
  signUpAnonymousUser,
  signUpEmailUser,
  type EmulatorUser,
} from './emulator-users';
import { buildTestApp, createTestSchema, type TestSchema } from './test-app';

export const TEST_HOST_SECRET = 'test-host-secret-4f1c';
export const TEST_SIGNAL_SECRET = 'test-signal-secret-0123456789abcdef';
/** Agora credentials are 32 hex characters; these are made up for tests. */
export const TEST_AGORA_APP_ID = '0123456789abcdef0123456789abcdef';
export const TEST_AGORA_CERTIFICATE = 'fedcba9876543210fedcba9876543210';
export const TEST_TRTC_SDK_APP_ID = 1400000001;
export const TEST_TRTC_SECRET = 'test-trtc-secret-key';

/** Session config for tests: everything fast enough to observe, nothing from the environment. */
export function testSessionConfig(overrides: Partial<SessionConfig> = {}): SessionConfig {
  return {
    ...loadSessionConfig({}),
    signalSecret: TEST_SIGNAL_SECRET,
    hostSharedSecret: TEST_HOST_SECRET,
    hostRequestTimeoutMs: 2_000,
    hostHeartbeatTimeoutMs: 60_000,
    sweepIntervalMs: 100,
    ...overrides,
  };
}

export interface SessionTestApp {
  app: FastifyInstance;
  base: string;
  port: number;
  close(): Promise<void>;
}

/** Builds and listens (on `port`, or an ephemeral one). */
export async function startSessionApp(
  schema: string,
  sessions: Partial<SessionConfig> = {},
  options: { port?: number; screenshotDir?: string; config?: Partial<ApiConfig> } = {},
): Promise<SessionTestApp> {
  const screenshotDir = options.screenshotDir ?? (await mkdtemp(path.join(tmpdir(), 'yc-shots-')));
  const app = await buildTestApp(schema, {
    ...options.config,
    sessions: testSessionConfig({ screenshotDir, ...sessions }),
  });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const port = (app.server.address() as { port: number }).port;
  return {
    app,
    port,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      if (!options.screenshotDir) await rm(screenshotDir, { recursive: true, force: true });
    },
  };
}

/** The web origin the api's CORS-facing tests allow (any loopback origin would do). */
export const TEST_WEB_ORIGIN = 'http://127.0.0.1:3000';

/** The running app and its schema, for one test file (appPerFile). */
export interface FileApp {
  readonly api: SessionTestApp;
  readonly schema: TestSchema;
}

/**
 * The real app on a schema of its own for one test file: started before the file's tests and
 * closed after them, with the accounts `users` made and the schema (jest's beforeAll/afterAll).
 * `webOrigin` allows TEST_WEB_ORIGIN (CORS).
 */
export function appPerFile(schemaName: string, options: { users?: TestUsers; webOrigin?: boolean } = {}): FileApp {
  let schema: TestSchema | undefined;
  let api: SessionTestApp | undefined;
  beforeAll(async () => {
    schema = await createTestSchema(schemaName);
    api = await startSessionApp(schema.name, {}, options.webOrigin ? { config: { webOrigins: [TEST_WEB_ORIGIN] } } : {});
  });
  afterAll(async () => {
    await api?.close();
    await options.users?.cleanup();
    await schema?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`the app of ${schemaName} is not started (use it inside a test)`);
    return value;
  };
  return {
    get api() {
      return started(api);
    },
    get schema() {
      return started(schema);
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  raw: Buffer;
}

export async function request(base: string, method: string, url: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined && typeof options.body !== 'string' ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const raw = Buffer.from(await response.arrayBuffer());
  let body: unknown = raw.toString('utf8');
  try {
    body = JSON.parse(body as string);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, raw };
}

/** Users created in the emulator, deleted one by one afterwards. */
export class TestUsers {
  private readonly created: EmulatorUser[] = [];

  /** A member: e-mail + password with the address verified. */
  email(): Promise<EmulatorUser> {
    return this.keep(signUpEmailUser());
  }

  /** E-mail + password whose address was never verified (the api treats it as a visitor). */
  unverifiedEmail(): Promise<EmulatorUser> {
    return this.keep(signUpEmailUser({ verified: false }));
  }

  /** A member signed in by an e-mail link. */
  emailLink(): Promise<EmulatorUser> {
    return this.keep(signInWithEmailLinkUser());
  }

  /** A member signed in with X (twitter.com); its e-mail, if any, is never verified. */
  twitter(options: { email?: string } = {}): Promise<EmulatorUser> {
    return this.keep(signInWithTwitterUser(options));
  }

  /** A visitor (anonymous sign-in). */
  anonymous(): Promise<EmulatorUser> {
    return this.keep(signUpAnonymousUser());
  }

  private async keep(signingUp: Promise<EmulatorUser>): Promise<EmulatorUser> {
    const user = await signingUp;
    this.created.push(user);
    return user;
  }

  async cleanup(): Promise<void> {
    await Promise.allSettled(this.created.map((user) => deleteEmulatorUser(user.uid)));
  }
}

/** Polls `probe` until it returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as T;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
