import type { Auth, DecodedIdToken } from 'firebase-admin/auth';
import { ApiError } from '../errors';

/** The verified caller, put on `request.user` by the auth hook. */
export interface AuthUser {
  uid: string;
  /** null for anonymous users and providers that give no address. */
  email: string | null;
  emailVerified: boolean;
  /** Signed in with Firebase anonymous sign-in (a "visitor"; treated as not verified). */
  isAnonymous: boolean;
  /** Firebase's sign_in_provider: "anonymous", "password", "twitter.com", "custom", ... */
  signInProvider: string;
  /** Every claim of the verified token, custom claims (e.g. paymentExpirationTime) included. */
  claims: DecodedIdToken;
}

/**
 * A JWT is three base64url parts; emulator tokens have an empty signature part. Checking the
 * shape first answers obvious garbage without a round trip to the Auth service.
 */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Real ID tokens are ~1 kB (more with custom claims); anything this long is not one. */
const MAX_TOKEN_LENGTH = 8 * 1024;

/** The token of an `Authorization: Bearer <token>` header, or a typed 401. */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new ApiError('unauthorized');
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('unauthorized');
  const token = match[1];
  if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) throw new ApiError('token_invalid');
  return token;
}

/**
 * Verifies an ID token, including revocation and disabled accounts (checkRevoked: one lookup of
 * the user per call, which is what lets "sign out everywhere" and disabling take effect at once).
 * With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin accepts the emulator's unsigned tokens but
 * still checks audience, issuer, expiry and subject.
 */
export async function verifyIdToken(auth: Auth, token: string): Promise<AuthUser> {
  let decoded: DecodedIdToken;
  try {
    decoded = await auth.verifyIdToken(token, true);
  } catch (error) {
    throw authFailure(error);
  }
  const signInProvider = decoded.firebase?.sign_in_provider ?? 'unknown';
  return {
    uid: decoded.uid,
    email: typeof decoded.email === 'string' ? decoded.email : null,
    emailVerified: decoded.email_verified === true,
    isAnonymous: signInProvider === 'anonymous',
    signInProvider,
    claims: decoded,
  };
}

/** Maps a firebase-admin failure to our codes; the original error stays as `cause` for the log. */
export function authFailure(error: unknown): ApiError {
  // A tampered payload or header that no longer decodes to JSON: firebase-admin lets the
  // parser's SyntaxError through without a code. It is the caller's bad token, not our bug.
  if (error instanceof SyntaxError) return new ApiError('token_invalid', undefined, { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'auth/id-token-expired':
      return new ApiError('token_expired', undefined, { cause: error });
    case 'auth/id-token-revoked':
      return new ApiError('token_revoked', undefined, { cause: error });
    case 'auth/user-disabled':
      return new ApiError('user_disabled', undefined, { cause: error });
    // Malformed, wrong project (aud/iss), bad signature, unknown kid, or a uid that does not exist.
    case 'auth/argument-error':
    case 'auth/invalid-argument':
    case 'auth/invalid-id-token':
    case 'auth/user-not-found':
      return new ApiError('token_invalid', undefined, { cause: error });
    // The Auth service (or the emulator) is unreachable: not the caller's fault, and not a reason
    // for the client to drop its session.
    case 'app/network-error':
    case 'app/network-timeout':
      return new ApiError('service_unavailable', undefined, { cause: error });
    default:
      return new ApiError('internal', undefined, { cause: error });
  }
}
