/**
 * What this browser's user was the last time the app knew (localStorage): a signed-in user or a
 * visitor. Firebase Auth loads after the first paint on public pages (lib/auth/loader.ts); the
 * hint lets a signed-in user's page start it at once (their rows and header need the user) while
 * a visitor's page waits. It is a hint only: nothing is allowed or refused by it.
 */
import type { AuthState } from '@/lib/types/user';
import { readRaw, writeRaw } from '@/lib/storage/localStore';

export const AUTH_HINT_KEY = 'yumecast.authHint';

export type AuthHint = 'verified' | 'visitor';

/** The last known kind of user here, or null when this browser has not been seen. */
export function readAuthHint(): AuthHint | null {
  const v = readRaw(AUTH_HINT_KEY);
  return v === 'verified' || v === 'visitor' ? v : null;
}

/** Remembers the auth state the app settled on (nothing while it is still unknown). */
export function writeAuthHint(state: AuthState): void {
  if (state === 'undefined') return;
  writeRaw(AUTH_HINT_KEY, state === 'verified' ? 'verified' : 'visitor');
}
