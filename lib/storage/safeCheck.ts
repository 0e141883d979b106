import { STORAGE_KEYS } from './keys';
import { isRecord, readJson, removeRaw, writeRaw } from './localStore';

/** Safe check of spec section 3: all booleans, default false. */
export interface SafeCheck {
  confirmed: boolean;
  over18: boolean;
  isNSFWMode: boolean;
}

export const DEFAULT_SAFE_CHECK: SafeCheck = { confirmed: false, over18: false, isNSFWMode: false };

/**
 * Everyone showing age-rated content (lib/safecheck) listens here, so a confirmation on one card
 * or a reset on sign-out (lib/auth/listener) reaches every list and page at once.
 */
const listeners = new Set<() => void>();

export function subscribeSafeCheck(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function notify(): void {
  for (const l of [...listeners]) l();
}

// Another tab confirming or signing out changes the same key: follow it here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === STORAGE_KEYS.safeCheck || e.key === null) notify();
  });
}

export function loadSafeCheck(): SafeCheck {
  const v = readJson(STORAGE_KEYS.safeCheck);
  if (!isRecord(v)) return { ...DEFAULT_SAFE_CHECK };
  const pick = (k: keyof SafeCheck) => (typeof v[k] === 'boolean' ? (v[k] as boolean) : false);
  return { confirmed: pick('confirmed'), over18: pick('over18'), isNSFWMode: pick('isNSFWMode') };
}

/** True once the person at this page (this load of the app) gave an answer. */
let answeredOnThisPage = false;

export function saveSafeCheck(value: SafeCheck): void {
  writeRaw(STORAGE_KEYS.safeCheck, JSON.stringify(value));
  answeredOnThisPage = true;
  notify();
}

/** Spec section 4: on sign-out, or when there is no user, the safe check is reset. */
export function resetSafeCheck(): void {
  removeRaw(STORAGE_KEYS.safeCheck);
  answeredOnThisPage = false;
  notify();
}

/**
 * The reset for "there is no user" when auth first reports, on a page where nobody was signed in.
 * Auth starts at a visitor's first tap on a public page (lib/auth/loader.ts), so its first report
 * can come just after the visitor answered the age question: that answer is this visitor's and is
 * kept (nothing a user gave is lost). An answer stored before this page, with no user behind it
 * any more, is reset as the spec says.
 */
export function resetSafeCheckFromBefore(): void {
  if (!answeredOnThisPage) resetSafeCheck();
}
