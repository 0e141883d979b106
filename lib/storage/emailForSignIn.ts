import { STORAGE_KEYS } from './keys';
import { readRaw, removeRaw, writeRaw } from './localStore';

/** The address an e-mail sign-in link was sent to (needed to complete it, spec section 5). */
export function loadEmailForSignIn(): string | null {
  const v = readRaw(STORAGE_KEYS.emailForSignIn);
  return v && v.includes('@') && v.length <= 320 ? v : null;
}

export function saveEmailForSignIn(email: string): void {
  writeRaw(STORAGE_KEYS.emailForSignIn, email);
}

export function clearEmailForSignIn(): void {
  removeRaw(STORAGE_KEYS.emailForSignIn);
}
