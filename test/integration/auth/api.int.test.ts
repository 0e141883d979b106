/**
 * The api side of accounts: only the server sets the paymentExpirationTime claim (internal
 * route + service), the browser picks it up on its next token refresh, users cannot set it
 * themselves, and tampered or expired ID tokens get a typed 401 with nothing changed.
 */
import './env';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { signInWithEmailAndPassword, signOut } from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { toUser } from '@/lib/auth/toUser';
import { TokenRefresher } from '@/lib/auth/tokenManager';
import { craftIdToken, signUpEmailUser } from '../../../server/api/testing/emulator-users';
import { listenForTest, type TestClient } from '../../../server/api/testing/http-client';
import { buildTestApp, createTestSchema, type TestSchema } from '../../../server/api/testing/test-app';
import { TEST_AUTH_EMULATOR_HOST } from '../../../server/api/testing/services';
import { getPaymentExpirationTime, setPaymentExpirationTime } from '../../../server/api/auth/payment-claim';
import { deleteUsers } from './helpers';

jest.setTimeout(30_000);

const INTERNAL = randomBytes(24).toString('hex');
const EXPIRES = 1_900_000_000;
const created = new Set<string>();

let schema: TestSchema;
let app: FastifyInstance;
let client: TestClient;

beforeAll(async () => {
  process.env.INTERNAL_API_TOKEN = INTERNAL;
  schema = await createTestSchema('acct');
  app = await buildTestApp(schema.name);
  client = await listenForTest(app);
});

afterAll(async () => {
  delete process.env.INTERNAL_API_TOKEN;
  await signOut(firebaseAuth()).catch(() => undefined);
  await app?.close();
  await deleteUsers(created);
  await schema?.drop();
});

async function newUser() {
  const u = await signUpEmailUser();
  created.add(u.uid);
  return u;
}

function setClaim(uid: string, value: unknown, headers: Record<string, string> = { 'x-internal-token': INTERNAL }) {
  return client.request({ method: 'PUT', url: `/internal/v1/users/${uid}/payment-expiration-time`, headers, payload: { paymentExpirationTime: value } });
}

async function claimsOf(uid: string) {
  return (await app.firebaseAuth.getUser(uid)).customClaims ?? {};
}

describe('PUT /internal/v1/users/:uid/payment-expiration-time (server only)', () => {
  it('sets, keeps other claims, and removes the claim', async () => {
    const u = await newUser();
    await app.firebaseAuth.setCustomUserClaims(u.uid, { role: 'tester' });
    const res = await setClaim(u.uid, EXPIRES);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', uid: u.uid, paymentExpirationTime: EXPIRES });
    expect(await claimsOf(u.uid)).toEqual({ role: 'tester', paymentExpirationTime: EXPIRES });
    expect(await getPaymentExpirationTime(app.firebaseAuth, u.uid)).toBe(EXPIRES);
    expect((await setClaim(u.uid, null)).json()).toEqual({ status: 'ok', uid: u.uid, paymentExpirationTime: null });
    expect(await claimsOf(u.uid)).toEqual({ role: 'tester' });
  });

  it('refuses callers without the internal secret, including signed-in users with their ID token', async () => {
    const u = await newUser();
    const noHeader = await setClaim(u.uid, EXPIRES, {});
    expect(noHeader.statusCode).toBe(401);
    expect(noHeader.json().error.code).toBe('unauthorized');
    const wrong = await setClaim(u.uid, EXPIRES, { 'x-internal-token': 'x'.repeat(48) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('forbidden');
    const bearer = await setClaim(u.uid, EXPIRES, { authorization: `Bearer ${u.idToken}` });
    expect(bearer.statusCode).toBe(401);
    expect(await claimsOf(u.uid)).toEqual({});
  });

  it('validates the body and the user', async () => {
    const u = await newUser();
    for (const bad of [1.5, -1, 12, 99_999_999_999, 'soon', {}]) {
      const r = await setClaim(u.uid, bad);
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('invalid_request');
    }
    const extra = await client.request({
      method: 'PUT',
      url: `/internal/v1/users/${u.uid}/payment-expiration-time`,
      headers: { 'x-internal-token': INTERNAL },
      payload: { paymentExpirationTime: EXPIRES, admin: true },
    });
    expect(extra.statusCode).toBe(400);
    const missing = await setClaim('no-such-user-123', EXPIRES);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect((await setClaim('bad%20uid', EXPIRES)).statusCode).toBe(400);
    expect(await claimsOf(u.uid)).toEqual({});
  });

  it('does not exist when no internal secret is configured', async () => {
    delete process.env.INTERNAL_API_TOKEN;
    const bare = await buildTestApp(schema.name);
    const c = await listenForTest(bare);
    const r = await c.request({ method: 'PUT', url: '/internal/v1/users/x/payment-expiration-time', headers: { 'x-internal-token': INTERNAL }, payload: { paymentExpirationTime: EXPIRES } });
    expect(r.statusCode).toBe(404);
    await bare.close();
    process.env.INTERNAL_API_TOKEN = INTERNAL;
  });

  it('the service validates its input too', async () => {
    const u = await newUser();
    await expect(setPaymentExpirationTime(app.firebaseAuth, u.uid, 12)).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('the browser picks the claim up on its token refresh', () => {
  it('reads paymentExpirationTime from the refreshed token into the User', async () => {
    const email = `claim-${randomBytes(6).toString('hex')}@example.test`;
    const auth = firebaseAuth();
    const res = await fetch(`http://${TEST_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'claim-pass-1', returnSecureToken: true }),
    });
    const { localId } = (await res.json()) as { localId: string };
    created.add(localId);
    const { user } = await signInWithEmailAndPassword(auth, email, 'claim-pass-1');
    expect(toUser(user, (await user.getIdTokenResult()).claims).paymentExpirationTime).toBeNull();

    expect((await setClaim(user.uid, EXPIRES)).statusCode).toBe(200);
    // The current token still says nothing; the token manager's refresh brings the claim.
    expect(toUser(user, (await user.getIdTokenResult()).claims).paymentExpirationTime).toBeNull();
    const refresher = new TokenRefresher({ refresh: async () => Date.parse((await user.getIdTokenResult(true)).expirationTime) });
    await refresher.refreshNow();
    refresher.stop();
    expect(toUser(user, (await user.getIdTokenResult()).claims).paymentExpirationTime).toBe(EXPIRES);
  });

  it('a user cannot set custom claims with their own token', async () => {
    const u = await newUser();
    const r = await fetch(`http://${TEST_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:update?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: u.idToken, customAttributes: JSON.stringify({ paymentExpirationTime: EXPIRES }) }),
    });
    expect(r.ok).toBe(false);
    expect(await claimsOf(u.uid)).toEqual({});
  });
});

describe('tampered or expired ID tokens at the api: 401, nothing changes', () => {
  const usersRows = async () => (await schema.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n as number;

  it.each([
    ['a signature added to an emulator token', (t: string) => `${t}c2lnbmF0dXJl`, 'token_invalid'],
    ['a payload with a byte changed', (t: string) => t.replace(/\.(.)/, (_m, c: string) => `.${c === 'e' ? 'f' : 'e'}`), 'token_invalid'],
    ['the header swapped to RS256', (t: string) => `${Buffer.from('{"alg":"RS256","typ":"JWT"}').toString('base64url')}${t.slice(t.indexOf('.'))}`, 'token_invalid'],
    ['two parts only', (t: string) => t.split('.').slice(0, 2).join('.'), 'token_invalid'],
  ])('%s → %s', async (_name, tamper, code) => {
    const u = await newUser();
    const before = await usersRows();
    const r = await client.request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${tamper(u.idToken)}` } });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
    expect(await usersRows()).toBe(before);
    expect(await claimsOf(u.uid)).toEqual({});
  });

  it('an expired token → token_expired; a token claiming the payment claim for an unknown user → token_invalid', async () => {
    const now = Math.floor(Date.now() / 1000);
    const before = await usersRows();
    const expired = await client.request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${craftIdToken({ iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })}` } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('token_expired');
    const forged = await client.request({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${craftIdToken({ paymentExpirationTime: EXPIRES })}` } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe('token_invalid');
    expect(await usersRows()).toBe(before);
  });
});
