import type { FastifyInstance } from 'fastify';
import {
  craftIdToken,
  deleteEmulatorUser,
  signUpAnonymousUser,
  signUpEmailUser,
  type EmulatorUser,
} from '../testing/emulator-users';
import { listenForTest, type TestClient, type TestResponse } from '../testing/http-client';
import { buildTestApp, createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(30_000);

describe('GET /v1/me (Firebase ID token hook + users row)', () => {
  let schema: TestSchema;
  let app: FastifyInstance;
  let client: TestClient;
  const created: EmulatorUser[] = [];

  async function newUser(kind: 'email' | 'anonymous' = 'email'): Promise<EmulatorUser> {
    const user = kind === 'email' ? await signUpEmailUser() : await signUpAnonymousUser();
    created.push(user);
    return user;
  }

  function me(authorization?: string) {
    return client.request({ method: 'GET', url: '/v1/me', headers: authorization ? { authorization } : {} });
  }

  async function userRow(uid: string): Promise<{ uid: string; created_at: Date; last_seen_at: Date | null } | undefined> {
    const { rows } = await schema.pool.query('SELECT uid, created_at, last_seen_at FROM users WHERE uid = $1', [uid]);
    return rows[0];
  }

  async function userCount(): Promise<number> {
    const { rows } = await schema.pool.query('SELECT count(*)::int AS n FROM users');
    return rows[0].n;
  }

  function expect401(response: TestResponse, code: string) {
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  }

  beforeAll(async () => {
    schema = await createTestSchema('me');
    app = await buildTestApp(schema.name);
    client = await listenForTest(app);
  });

  afterAll(async () => {
    await app?.close();
    await Promise.allSettled(created.map((user) => deleteEmulatorUser(user.uid)));
    await schema?.drop();
  });

  it('answers 200 for a real emulator token and records the user', async () => {
    const user = await newUser('email');
    const response = await me(`Bearer ${user.idToken}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', uid: user.uid, isAnonymous: false, email: user.email });

    const first = await userRow(user.uid);
    expect(first?.last_seen_at).toBeInstanceOf(Date);

    // A second call keeps the row and moves last_seen_at forward.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await me(`Bearer ${user.idToken}`)).statusCode).toBe(200);
    const second = await userRow(user.uid);
    expect(second?.created_at).toEqual(first?.created_at);
    expect(second!.last_seen_at!.getTime()).toBeGreaterThan(first!.last_seen_at!.getTime());
  });

  it('reports anonymous users as such, with no e-mail', async () => {
    const visitor = await newUser('anonymous');
    const response = await me(`Bearer ${visitor.idToken}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', uid: visitor.uid, isAnonymous: true, email: null });
  });

  describe('rejected tokens answer 401 with a typed code and write no users row', () => {
    let before: number;
    beforeEach(async () => {
      before = await userCount();
    });
    afterEach(async () => {
      expect(await userCount()).toBe(before);
    });

    it('no Authorization header → unauthorized', async () => {
      expect401(await me(), 'unauthorized');
    });

    it('another scheme → unauthorized', async () => {
      expect401(await me('Basic dXNlcjpwYXNz'), 'unauthorized');
    });

    it('malformed token → token_invalid', async () => {
      expect401(await me('Bearer not-a-jwt'), 'token_invalid');
      expect401(await me('Bearer aaaa.bbbb.cccc'), 'token_invalid');
    });

    it('expired token → token_expired', async () => {
      const now = Math.floor(Date.now() / 1000);
      const uid = 'expired-user';
      expect401(await me(`Bearer ${craftIdToken({ sub: uid, iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })}`), 'token_expired');
      expect(await userRow(uid)).toBeUndefined();
    });

    it('token of another project → token_invalid', async () => {
      const token = craftIdToken({ aud: 'someone-else', iss: 'https://securetoken.google.com/someone-else' });
      expect401(await me(`Bearer ${token}`), 'token_invalid');
    });

    it('well-formed token for a user the Auth service does not know → token_invalid', async () => {
      expect401(await me(`Bearer ${craftIdToken()}`), 'token_invalid');
    });

    it('revoked token → token_revoked', async () => {
      const user = await newUser('email');
      // Revocation compares whole seconds (auth_time vs. validSince): revoke a second later.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await app.firebaseAuth.revokeRefreshTokens(user.uid);
      expect401(await me(`Bearer ${user.idToken}`), 'token_revoked');
      expect(await userRow(user.uid)).toBeUndefined();
    });

    it('disabled account → user_disabled', async () => {
      const user = await newUser('email');
      await app.firebaseAuth.updateUser(user.uid, { disabled: true });
      expect401(await me(`Bearer ${user.idToken}`), 'user_disabled');
      expect(await userRow(user.uid)).toBeUndefined();
    });
  });

  it('looks a user up once per AUTH_REVOCATION_CHECK_MS, and sees a revocation once the window has passed', async () => {
    const user = await newUser('email');
    const before = app.accountChecks.lookups;
    for (let i = 0; i < 3; i++) expect((await me(`Bearer ${user.idToken}`)).statusCode).toBe(200);
    expect(app.accountChecks.lookups - before).toBe(1);
    // the window itself, with the clock given: within it the kept answer, after it a fresh lookup
    const { AccountChecks } = await import('../auth/id-token');
    const checks = new AccountChecks(60_000);
    const t0 = Date.now();
    const first = (await checks.get(app.firebaseAuth, user.uid, t0)).validAfterMs;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await app.firebaseAuth.revokeRefreshTokens(user.uid);
    expect((await checks.get(app.firebaseAuth, user.uid, t0 + 59_000)).validAfterMs).toBe(first);
    expect((await checks.get(app.firebaseAuth, user.uid, t0 + 61_000)).validAfterMs).toBeGreaterThan(first);
    expect(checks.lookups).toBe(2);
  });
});
