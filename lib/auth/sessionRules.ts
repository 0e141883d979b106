/**
 * The sign-out rules of spec section 4, as a pure decision over the provider's user:
 * - a provider user with no display name, an unverified e-mail and provider entries is signed out;
 * - missing both name and e-mail with provider entries signs out and reports auth/unexpected-error.
 * Anonymous users have no provider entries and are always kept.
 */
export interface SessionRuleInput {
  isAnonymous: boolean;
  displayName: string | null;
  email: string | null;
  emailVerified: boolean;
  providerData: readonly unknown[];
}

export type SessionRuleDecision = { action: 'keep' } | { action: 'signOut'; code: string | null };

export const UNEXPECTED_ERROR = 'auth/unexpected-error';

export function sessionRule(u: SessionRuleInput): SessionRuleDecision {
  if (u.isAnonymous || u.providerData.length === 0) return { action: 'keep' };
  const hasName = !!u.displayName?.trim();
  if (hasName) return { action: 'keep' };
  if (!u.email) return { action: 'signOut', code: UNEXPECTED_ERROR };
  if (!u.emailVerified) return { action: 'signOut', code: null };
  return { action: 'keep' };
}
