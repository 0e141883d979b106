/**
 * Talks to the Firebase Auth emulator's REST API to make test users; the browser then signs
 * in through the real pages. Never used by the product itself.
 */
const AUTH = process.env.FIREBASE_AUTH_EMULATOR_HOST || '127.0.0.1:9199';
const PROJECT = process.env.FIREBASE_PROJECT_ID || 'demo-yumecast';
const IDT = `http://${AUTH}/identitytoolkit.googleapis.com/v1`;

async function post<T>(url: string, body: unknown, owner = false): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(`emulator ${url}: ${json.error?.message ?? res.status}`);
  return json;
}

export interface TestUser {
  email: string;
  password: string;
  uid: string;
  idToken: string;
}

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

/** A signed-up user whose e-mail is already verified (as after clicking the mail's link). */
export async function createVerifiedUser(email = uniqueEmail(), password = 'secret-pass-1'): Promise<TestUser> {
  const r = await post<{ localId: string; idToken: string }>(`${IDT}/accounts:signUp?key=demo-api-key`, { email, password, returnSecureToken: true });
  await post(`${IDT}/projects/${PROJECT}/accounts:update`, { localId: r.localId, emailVerified: true }, true);
  const s = await post<{ idToken: string }>(`${IDT}/accounts:signInWithPassword?key=demo-api-key`, { email, password, returnSecureToken: true });
  return { email, password, uid: r.localId, idToken: s.idToken };
}
