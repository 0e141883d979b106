/**
 * Calling the callable functions the way the web SDK does, and the users to call them with.
 * `httpsCallable(...)(data)` is a POST of `{"data": …}` to
 * http://<emulator>/<project>/<region>/<name> with `Authorization: Bearer <ID token>`; the answer
 * is `{"result": …}` or `{"error": {"status", "message", "details"}}`. Users and ID tokens come
 * from the Auth emulator's REST API (what the browser SDK calls). Addresses come from the
 * environment scripts/test.ts passes (FUNCTIONS_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST);
 * the defaults are `npm start`'s, so the suite also runs against a running dev stack.
 */
import { randomUUID } from 'node:crypto';
import { FUNCTIONS_REGION } from '../../../functions/src/region';
import { TEST_AUTH_EMULATOR_HOST, TEST_PROJECT_ID } from '../../../server/api/testing/services';

export const FUNCTIONS_EMULATOR_HOST = process.env.FUNCTIONS_EMULATOR_HOST?.trim() || '127.0.0.1:5001';
const AUTH = `http://${TEST_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;

export interface CallableAnswer {
  httpStatus: number;
  result?: unknown;
  error?: { status: string; message: string; details?: Record<string, unknown> };
}

export function callableUrl(name: string): string {
  return `http://${FUNCTIONS_EMULATOR_HOST}/${TEST_PROJECT_ID}/${FUNCTIONS_REGION}/${name}`;
}

/** POSTs `{ data }` like httpsCallable; `idToken` becomes the bearer token when given. */
export async function callCallable(name: string, data: unknown, idToken?: string): Promise<CallableAnswer> {
  const response = await fetch(callableUrl(name), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(idToken ? { authorization: `Bearer ${idToken}` } : {}) },
    body: JSON.stringify({ data }),
  });
  const body = (await response.json()) as Omit<CallableAnswer, 'httpStatus'>;
  return { httpStatus: response.status, ...body };
}

export interface TestUser {
  uid: string;
  email: string | null;
  idToken: string;
}

async function identity(path: string, body: Record<string, unknown>, admin = false): Promise<Record<string, unknown>> {
  const response = await fetch(`${AUTH}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(admin ? { authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`Auth emulator ${path}: HTTP ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export async function anonymousUser(): Promise<TestUser> {
  const json = await identity('accounts:signUp?key=any', { returnSecureToken: true });
  return { uid: String(json.localId), email: null, idToken: String(json.idToken) };
}

/** An e-mail + password user; `verified` marks the address verified and signs in again (new token). */
export async function emailUser(verified: boolean): Promise<TestUser> {
  const email = `fn-${randomUUID().slice(0, 12)}@example.test`;
  const password = 'test-password-123';
  const created = await identity('accounts:signUp?key=any', { email, password, returnSecureToken: true });
  const uid = String(created.localId);
  if (!verified) return { uid, email, idToken: String(created.idToken) };
  await identity(`projects/${TEST_PROJECT_ID}/accounts:update`, { localId: uid, emailVerified: true }, true);
  const signedIn = await identity('accounts:signInWithPassword?key=any', { email, password, returnSecureToken: true });
  return { uid, email, idToken: String(signedIn.idToken) };
}

export async function deleteUsers(users: TestUser[]): Promise<void> {
  await Promise.allSettled(users.map((u) => identity(`projects/${TEST_PROJECT_ID}/accounts:delete`, { localId: u.uid }, true)));
}
