import { errorCodeOf } from './errors';

/** Auth helpers return result false plus the provider's error code (spec section 8). */
export type AuthResult = { result: true } | { result: false; code: string };

export const ok: AuthResult = { result: true };
export const fail = (code: string): AuthResult => ({ result: false, code });

export async function attempt(run: () => Promise<unknown>): Promise<AuthResult> {
  try {
    await run();
    return ok;
  } catch (e) {
    return fail(errorCodeOf(e));
  }
}
