import { randomUUID } from 'node:crypto';
import { TEST_AUTH_EMULATOR_HOST, TEST_PROJECT_ID } from '../../../server/api/testing/services';
import type { EmulatorOobCode } from '@/lib/auth/mailbox';

const BASE = `http://${TEST_AUTH_EMULATOR_HOST}`;

export const SITE = 'http://localhost:3100';

export function uniqueEmail(tag = 'acct'): string {
  return `${tag}-${randomUUID().slice(0, 12)}@example.test`;
}

/** Every mail the emulator "sent" to `email` (or about it), oldest first. */
export async function mailsTo(email: string): Promise<EmulatorOobCode[]> {
  const res = await fetch(`${BASE}/emulator/v1/projects/${TEST_PROJECT_ID}/oobCodes`);
  const json = (await res.json()) as { oobCodes: EmulatorOobCode[] };
  const want = email.toLowerCase();
  return json.oobCodes.filter((c) => c.email?.toLowerCase() === want || c.newEmail?.toLowerCase() === want);
}

export async function lastMail(email: string, requestType: string): Promise<EmulatorOobCode> {
  const all = (await mailsTo(email)).filter((c) => c.requestType === requestType);
  if (!all.length) throw new Error(`no ${requestType} mail for ${email}`);
  return all[all.length - 1];
}

export async function deleteUsers(uids: Iterable<string>): Promise<void> {
  await Promise.allSettled(
    [...new Set(uids)].map((uid) =>
      fetch(`${BASE}/identitytoolkit.googleapis.com/v1/projects/${TEST_PROJECT_ID}/accounts:delete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: uid }),
      }),
    ),
  );
}

/** The account as the emulator holds it (admin view). */
export async function account(uid: string): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(`${BASE}/identitytoolkit.googleapis.com/v1/projects/${TEST_PROJECT_ID}/accounts:lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: [uid] }),
  });
  const json = (await res.json()) as { users?: Record<string, unknown>[] };
  return json.users?.[0];
}

/** An in-memory Storage, for lib/storage in node (the e-mail link address lives there). */
export class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.has(k) ? this.m.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  clear() {
    this.m.clear();
  }
}
