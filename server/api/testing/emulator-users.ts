/**
 * Users and tokens for auth tests. Real tokens come from the emulator's REST API (what the
 * browser SDK calls); crafted tokens are unsigned JWTs, which emulator-mode firebase-admin
 * accepts as far as the signature goes while still checking aud, iss, exp and sub.
 */
import { randomUUID } from 'node:crypto';
import { HOW_TO_RUN, TEST_AUTH_EMULATOR_HOST, TEST_PROJECT_ID } from './services';

const BASE = `http://${TEST_AUTH_EMULATOR_HOST}`;

export interface EmulatorUser {
  uid: string;
  idToken: string;
  email: string | null;
}

async function signUp(body: Record<string, unknown>): Promise<EmulatorUser> {
  let response: Response;
  try {
    response = await fetch(`${BASE}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, returnSecureToken: true }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`cannot reach the Auth emulator at ${BASE} (${reason}).\n${HOW_TO_RUN}`);
  }
  const json = (await response.json()) as { localId?: string; idToken?: string; email?: string; error?: unknown };
  if (!response.ok || !json.localId || !json.idToken) {
    throw new Error(`emulator signUp failed: HTTP ${response.status} ${JSON.stringify(json.error ?? json)}`);
  }
  return { uid: json.localId, idToken: json.idToken, email: json.email ?? null };
}

export function signUpEmailUser(): Promise<EmulatorUser> {
  return signUp({ email: `api-test-${randomUUID()}@example.test`, password: 'test-password-123' });
}

export function signUpAnonymousUser(): Promise<EmulatorUser> {
  return signUp({});
}

/** Deletes one account ("Bearer owner" is the emulator's admin credential). */
export async function deleteEmulatorUser(uid: string): Promise<void> {
  const response = await fetch(`${BASE}/identitytoolkit.googleapis.com/v1/projects/${TEST_PROJECT_ID}/accounts:delete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: uid }),
  });
  if (!response.ok) throw new Error(`emulator delete failed: HTTP ${response.status}`);
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
