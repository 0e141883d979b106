/**
 * The api's reading of a Firebase ID token: bearer parsing, verification by firebase-admin with
 * revocation and disabled accounts looked up at most once per window (AccountChecks), the mapping
 * of firebase-admin's failures to our typed 401/503, and the one decision of who is a *verified*
 * caller (isVerifiedCaller, notVerified; docs/api.md "Verified callers"), so every route that
 * needs one refuses the same callers with the same typed 403.
 */
import type { Auth, DecodedIdToken } from 'firebase-admin/auth';
import { ApiError } from '../errors';

/** The authenticated caller, put on `request.user` by the auth hook. */
export interface AuthUser {
  uid: string;
  /** null for anonymous users and providers that give no address. */
  email: string | null;
  emailVerified: boolean;
  /** Signed in with Firebase anonymous sign-in (a "visitor"). */
  isAnonymous: boolean;
  /**
   * A verified user (spec §2 and §6: signed in and not anonymous) by isVerifiedCaller: the one
   * property every "verified only" check reads. False for visitors and for e-mail + password
   * accounts whose address is not confirmed; true for X (twitter.com) and e-mail link members.
   */
  isVerified: boolean;
  /** Firebase's sign_in_provider: "anonymous", "password", "twitter.com", "custom", ... */
  signInProvider: string;
  /** Every claim of the verified token, custom claims (e.g. paymentExpirationTime) included. */
  claims: DecodedIdToken;
}

/** sign_in_provider of an e-mail + password or an e-mail link sign-in (Firebase names both "password"). */
const PASSWORD_PROVIDER = 'password';
/** signInProvider of a token that names none. */
const UNKNOWN_PROVIDER = 'unknown';

/**
 * Whether a caller is a verified user, decided here once for the whole api. Not verified:
 * - a visitor (`anonymous`);
 * - an e-mail + password account whose address is not confirmed (`password` with
 *   email_verified false): the web signs such users out (spec §4), and the api refuses them the
 *   same, or anyone could register any address and play with the sign-up's own token;
 * - a token without a sign-in provider (no real Firebase ID token lacks one): fail closed.
 * Verified: every other provider, whatever its email_verified says. X (`twitter.com`) gives no
 * verified address, often none at all, and is a registered user's sign-in per the spec; an
 * e-mail link sign-in is `password` with email_verified true (opening the link proves it).
 */
export function isVerifiedCaller(signInProvider: string, emailVerified: boolean): boolean {
  if (signInProvider === 'anonymous' || signInProvider === UNKNOWN_PROVIDER) return false;
  if (signInProvider === PASSWORD_PROVIDER) return emailVerified;
  return true;
}

/** What an unconfirmed address is told (the same code a visitor gets, a message that says why). */
export const UNVERIFIED_EMAIL_MESSAGE =
  'メールアドレスの確認が済んでいません。届いた確認メールのリンクを開いてから、もう一度ログインしてください。';

/**
 * The typed 403 `verified_required` for a caller who is not verified: `visitorMessage` (a route's
 * own wording, else the code's) for a visitor, UNVERIFIED_EMAIL_MESSAGE for an unconfirmed address.
 */
export function notVerified(user: Pick<AuthUser, 'signInProvider'>, visitorMessage?: string): ApiError {
  return new ApiError('verified_required', user.signInProvider === PASSWORD_PROVIDER ? UNVERIFIED_EMAIL_MESSAGE : visitorMessage);
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

/** What a user lookup said about revocation, and when. */
interface AccountCheck {
  /** tokensValidAfterTime in ms (tokens signed in before it are revoked); 0 when never revoked. */
  validAfterMs: number;
  disabled: boolean;
  checkedAt: number;
}

/** Users whose lookup is kept at once; the oldest go first beyond it. */
const MAX_CACHED_USERS = 50_000;

/**
 * Revocation and disabled accounts, looked up at most once per `maxAgeMs` per user (docs/scale.md
 * "Bearer check": every call of every player asked Firebase Auth for the account before, ~3,000
 * lookups a second at 10,000 players, with a quota and latency outside our control). A revocation
 * ("sign out everywhere") or a disabled account therefore takes effect within `maxAgeMs` (60 s by
 * default, AUTH_REVOCATION_CHECK_MS; 0 = on every call, as firebase-admin's checkRevoked does).
 */
export class AccountChecks {
  private readonly checks = new Map<string, AccountCheck>();
  /** Lookups under way: concurrent calls of one user past the window share one. */
  private readonly pending = new Map<string, Promise<AccountCheck>>();
  lookups = 0;

  constructor(private readonly maxAgeMs: number) {}

  async get(auth: Auth, uid: string, now = Date.now()): Promise<AccountCheck> {
    const cached = this.checks.get(uid);
    if (cached && now - cached.checkedAt < this.maxAgeMs) return cached;
    const under = this.pending.get(uid);
    if (under) return under;
    const lookup = this.lookup(auth, uid, now).finally(() => this.pending.delete(uid));
    this.pending.set(uid, lookup);
    return lookup;
  }

  private async lookup(auth: Auth, uid: string, now: number): Promise<AccountCheck> {
    this.lookups += 1;
    const user = await auth.getUser(uid);
    const check: AccountCheck = {
      validAfterMs: user.tokensValidAfterTime ? new Date(user.tokensValidAfterTime).getTime() : 0,
      disabled: user.disabled,
      checkedAt: now,
    };
    if (this.maxAgeMs > 0) {
      this.checks.delete(uid);
      this.checks.set(uid, check);
      if (this.checks.size > MAX_CACHED_USERS) this.checks.delete(this.checks.keys().next().value as string);
    }
    return check;
  }
}

/**
 * Verifies an ID token: signature, audience, issuer, expiry and subject by firebase-admin, then
 * revocation and disabled accounts from `checks` (a user lookup at most once per its window; the
 * same rule as firebase-admin's checkRevoked: the token's auth_time before tokensValidAfterTime
 * is revoked). With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin accepts the emulator's
 * unsigned tokens but still checks the rest.
 */
export async function verifyIdToken(auth: Auth, token: string, checks: AccountChecks = new AccountChecks(0)): Promise<AuthUser> {
  let decoded: DecodedIdToken;
  try {
    decoded = await auth.verifyIdToken(token, false);
    const account = await checks.get(auth, decoded.uid);
    if (account.disabled) throw Object.assign(new Error('The user record is disabled.'), { code: 'auth/user-disabled' });
    if (decoded.auth_time * 1000 < account.validAfterMs) throw Object.assign(new Error('The Firebase ID token has been revoked.'), { code: 'auth/id-token-revoked' });
  } catch (error) {
    throw authFailure(error);
  }
  const signInProvider = decoded.firebase?.sign_in_provider ?? UNKNOWN_PROVIDER;
  const emailVerified = decoded.email_verified === true;
  return {
    uid: decoded.uid,
    email: typeof decoded.email === 'string' ? decoded.email : null,
    emailVerified,
    isAnonymous: signInProvider === 'anonymous',
    isVerified: isVerifiedCaller(signInProvider, emailVerified),
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
