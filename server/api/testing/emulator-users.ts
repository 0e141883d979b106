/**
 * Users and tokens for auth tests. Real tokens come from the emulator's REST API (what the
 * browser SDK calls): e-mail + password users (verified by default, as a member is; or not),
 * visitors (anonymous), e-mail link users and X (twitter.com) users with the emulator's fake
 * credential. Crafted tokens are unsigned JWTs, which emulator-mode firebase-admin accepts as
 * far as the signature goes while still checking aud, iss, exp and sub.
 */
import { randomUUID } from 'node:crypto';
import { HOW_TO_RUN, TEST_AUTH_EMULATOR_HOST, TEST_PROJECT_ID } from './services';

const BASE = `http://${TEST_AUTH_EMULATOR_HOST}`;

export interface EmulatorUser {
  uid: string;
  idToken: string;
  email: string | null;
}

interface IdentityAnswer {
  localId?: string;
  idToken?: string;
  email?: string;
  oobCode?: string;
  error?: unknown;
}

/** One call of the emulator's Identity Toolkit REST API; `admin` sends its admin credential. */
async function identity(path: string, body: Record<string, unknown>, admin = false): Promise<IdentityAnswer> {
  let response: Response;
  try {
    response = await fetch(`${BASE}/identitytoolkit.googleapis.com/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(admin ? { authorization: 'Bearer owner' } : {}) },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`cannot reach the Auth emulator at ${BASE} (${reason}).\n${HOW_TO_RUN}`);
  }
  const json = (await response.json()) as IdentityAnswer;
  if (!response.ok) throw new Error(`emulator ${path.split('?')[0]} failed: HTTP ${response.status} ${JSON.stringify(json.error ?? json)}`);
  return json;
}

/** A signed-in answer as an EmulatorUser (it must carry a uid and an ID token). */
function signedIn(json: IdentityAnswer, what: string): EmulatorUser {
  if (!json.localId || !json.idToken) throw new Error(`emulator ${what}: no user or token in ${JSON.stringify(json)}`);
  return { uid: json.localId, idToken: json.idToken, email: json.email ?? null };
}

async function signUp(body: Record<string, unknown>): Promise<EmulatorUser> {
  return signedIn(await identity('accounts:signUp?key=any', { ...body, returnSecureToken: true }), 'signUp');
}

const TEST_PASSWORD = 'test-password-123';

/**
 * An e-mail + password member. By default the address is verified (as the web requires before it
 * keeps a member signed in) and the token is a fresh sign-in's, so it says email_verified: true.
 * `{ verified: false }`: the sign-up's own token, email_verified false — a registration whose
 * address was never confirmed, which the api treats as a visitor (docs/api.md "Verified callers").
 */
export async function signUpEmailUser(options: { verified?: boolean } = {}): Promise<EmulatorUser> {
  const email = `api-test-${randomUUID()}@example.test`;
  const user = await signUp({ email, password: TEST_PASSWORD });
  if (options.verified === false) return user;
  await identity(`projects/${TEST_PROJECT_ID}/accounts:update`, { localId: user.uid, emailVerified: true }, true);
  return signedIn(await identity('accounts:signInWithPassword?key=any', { email, password: TEST_PASSWORD, returnSecureToken: true }), 'signInWithPassword');
}

/**
 * A member who signs in with an e-mail link (a new account): its token's provider is `password`
 * and email_verified is true (opening the link proves the address).
 */
export async function signInWithEmailLinkUser(): Promise<EmulatorUser> {
  const email = `api-link-${randomUUID()}@example.test`;
  const link = await identity(
    'accounts:sendOobCode?key=any',
    { requestType: 'EMAIL_SIGNIN', email, continueUrl: 'http://127.0.0.1:3000/purchase/link-callback', returnOobLink: true },
    true,
  );
  if (!link.oobCode) throw new Error(`emulator sendOobCode: no oobCode in ${JSON.stringify(link)}`);
  return signedIn(await identity('accounts:signInWithEmailLink?key=any', { email, oobCode: link.oobCode, returnSecureToken: true }), 'signInWithEmailLink');
}

/**
 * A member who signs in with X (twitter.com), through the emulator's fake credential (the claims
 * as JSON in the access token, as the local consent form sends them). X gives no verified address:
 * with `email` the token carries it with email_verified false; without, no e-mail at all.
 */
export async function signInWithTwitterUser(options: { email?: string } = {}): Promise<EmulatorUser> {
  const screenName = `api${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const claims: Record<string, string> = { sub: `api-x-${screenName}`, screen_name: screenName, name: 'テスト' };
  if (options.email) claims.email = options.email;
  const postBody = new URLSearchParams({ providerId: 'twitter.com', access_token: JSON.stringify(claims), oauth_token_secret: 'secret' });
  return signedIn(
    await identity('accounts:signInWithIdp?key=any', { requestUri: 'http://127.0.0.1', postBody: postBody.toString(), returnSecureToken: true }),
    'signInWithIdp',
  );
}

export function signUpAnonymousUser(): Promise<EmulatorUser> {
  return signUp({});
}

/** Deletes one account ("Bearer owner" is the emulator's admin credential). */
export async function deleteEmulatorUser(uid: string): Promise<void> {
  await identity(`projects/${TEST_PROJECT_ID}/accounts:delete`, { localId: uid }, true);
}

/** An unsigned ID token with valid-looking claims for TEST_PROJECT_ID, changed by `overrides`. */
export function craftIdToken(overrides: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const uid = (overrides.sub as string | undefined) ?? `crafted-${randomUUID()}`;
  const payload = {
    iss: `https://securetoken.google.com/${TEST_PROJECT_ID}`,
    aud: TEST_PROJECT_ID,
    auth_time: now - 60,
    user_id: uid,
    sub: uid,
    iat: now - 60,
    exp: now + 3600,
    firebase: { identities: {}, sign_in_provider: 'anonymous' },
    ...overrides,
  };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.`;
}
