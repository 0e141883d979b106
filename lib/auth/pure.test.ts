import { safeRedirectPath } from './safeRedirect';
import { needsEmailNormalisation, normalizeEmailForLookup } from './emailNormalize';
import { sessionRule } from './sessionRules';
import { authMessage, KNOWN_AUTH_CODES } from './messages';
import { cleanEmailInput, validateDisplayName, validateEmail, validatePassword, validatePasswordConfirmation, validateScreenName, MIN_PASSWORD_LENGTH } from './validation';
import { ANONYMOUS_EMAIL, PLACEHOLDER_PHOTO_URL, toUser } from './toUser';
import type { User as FirebaseUser } from 'firebase/auth';

const ORIGIN = 'http://localhost:3100';

describe('safeRedirectPath: only same-origin relative paths', () => {
  it.each([
    ['/', '/'],
    ['/purchase/register-card', '/purchase/register-card'],
    ['/search?q=a#top', '/search?q=a#top'],
    [`${ORIGIN}/settings/email`, '/settings/email'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('accepts %s', (input, want) => {
    expect(safeRedirectPath(input, ORIGIN)).toBe(want);
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://localhost:3100@evil.example/',
    'http://localhost:3101/',
    'evil.example',
    '/\t/evil.example',
    ' //evil.example',
    '',
    'x'.repeat(3000),
  ])('refuses %s', (input) => {
    expect(safeRedirectPath(input, ORIGIN)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(safeRedirectPath(undefined, ORIGIN)).toBeNull();
    expect(safeRedirectPath(['/a'], ORIGIN)).toBeNull();
  });
});

describe('e-mail normalisation before the sign-in method lookup (spec section 5)', () => {
  it('quotes local parts with an odd dot-at or a double dot', () => {
    expect(normalizeEmailForLookup('taro.@docomo.ne.jp')).toBe('"taro."@docomo.ne.jp');
    expect(normalizeEmailForLookup('ta..ro@ezweb.ne.jp')).toBe('"ta..ro"@ezweb.ne.jp');
    expect(normalizeEmailForLookup(' Ta..Ro.@Example.COM ')).toBe('"ta..ro."@example.com');
  });
  it('leaves ordinary and already-quoted addresses alone (trimmed, lower-cased)', () => {
    expect(normalizeEmailForLookup(' Taro.Yamada@Example.com ')).toBe('taro.yamada@example.com');
    expect(normalizeEmailForLookup('"taro."@docomo.ne.jp')).toBe('"taro."@docomo.ne.jp');
    expect(needsEmailNormalisation('a.b@c.d')).toBe(false);
    expect(needsEmailNormalisation('a.@c.d')).toBe(true);
  });
});

describe('sign-out rules (spec section 4)', () => {
  const base = { isAnonymous: false, displayName: null, email: 'a@example.com', emailVerified: false, providerData: [{}] };
  it('signs out a provider user with no name and an unverified e-mail', () => {
    expect(sessionRule(base)).toEqual({ action: 'signOut', code: null });
  });
  it('signs out with auth/unexpected-error when both name and e-mail are missing', () => {
    expect(sessionRule({ ...base, email: null })).toEqual({ action: 'signOut', code: 'auth/unexpected-error' });
  });
  it('keeps verified, named and anonymous users', () => {
    expect(sessionRule({ ...base, emailVerified: true })).toEqual({ action: 'keep' });
    expect(sessionRule({ ...base, displayName: 'たろう' })).toEqual({ action: 'keep' });
    expect(sessionRule({ ...base, displayName: 'たろう', email: null })).toEqual({ action: 'keep' });
    expect(sessionRule({ isAnonymous: true, displayName: null, email: null, emailVerified: false, providerData: [] })).toEqual({ action: 'keep' });
    expect(sessionRule({ ...base, providerData: [] })).toEqual({ action: 'keep' });
  });
});

describe('Japanese messages', () => {
  it('covers the codes of the flows', () => {
    for (const code of [
      'auth/wrong-password',
      'auth/invalid-credential',
      'auth/user-not-found',
      'auth/weak-password',
      'auth/email-already-in-use',
      'auth/invalid-email',
      'auth/too-many-requests',
      'auth/expired-action-code',
      'auth/invalid-action-code',
      'auth/network-request-failed',
      'auth/requires-recent-login',
      'auth/credential-already-in-use',
      'auth/provider-already-linked',
      'auth/unexpected-error',
      'notEmailVerified',
      'No email link',
      '401',
      'user error',
      'userCredential does not exist',
      'not user',
      'currentUser does not exist',
    ]) {
      expect(KNOWN_AUTH_CODES).toContain(code);
      expect(authMessage(code)).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    }
  });
  it('gives every code a Japanese sentence and unknown codes the generic one', () => {
    for (const code of KNOWN_AUTH_CODES) expect(authMessage(code)).toMatch(/[。…]$/);
    expect(authMessage('auth/some-new-code')).toBe(authMessage('auth/unexpected-error'));
    expect(authMessage(null)).toBe(authMessage('auth/unexpected-error'));
    expect(authMessage('auth/expired-action-code')).not.toBe(authMessage('auth/invalid-action-code'));
  });
});

describe('form validation', () => {
  it('checks e-mails', () => {
    expect(validateEmail('')).toMatch(/入力/);
    expect(validateEmail('not-an-email')).toMatch(/形式/);
    expect(validateEmail(' a@example.com ')).toBeNull();
    // a Japanese keyboard's full-width mode (and its ideographic space)
    expect(validateEmail('\u3000ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ')).toBeNull();
    expect(cleanEmailInput('\u3000ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ ')).toBe('taro@example.jp');
  });
  it('requires 6 characters for passwords (the provider rule)', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(6);
    expect(validatePassword('12345')).toMatch(/6文字以上/);
    expect(validatePassword('123456')).toBeNull();
    expect(validatePassword('')).toMatch(/入力/);
    expect(validatePasswordConfirmation('abcdef', 'abcdeg')).toMatch(/一致しません/);
    expect(validatePasswordConfirmation('abcdef', 'abcdef')).toBeNull();
  });
  it('checks display names and X handles', () => {
    expect(validateDisplayName('  ')).toMatch(/入力/);
    expect(validateDisplayName('あ'.repeat(51))).toMatch(/50文字/);
    expect(validateDisplayName('<b>')).toMatch(/使えない/);
    expect(validateDisplayName('ゆめ')).toBeNull();
    expect(validateScreenName('@yume_cast')).toBeNull();
    expect(validateScreenName('bad handle!')).toMatch(/半角英数字/);
    expect(validateScreenName('a'.repeat(16))).toMatch(/15文字/);
  });
});

describe('toUser (spec section 3)', () => {
  const fb = (over: Partial<FirebaseUser>): FirebaseUser =>
    ({
      uid: 'u1',
      displayName: null,
      email: 'a@example.com',
      emailVerified: true,
      photoURL: null,
      isAnonymous: false,
      providerData: [{ providerId: 'password' }],
      metadata: { creationTime: 'Tue, 01 Jan 2030 00:00:00 GMT' },
      ...over,
    }) as unknown as FirebaseUser;

  it('falls back to the e-mail for the name and a placeholder photo; reads the claim', () => {
    const u = toUser(fb({}), { paymentExpirationTime: 1900000000 }, ['password']);
    expect(u).toEqual({
      name: 'a@example.com',
      photoUrl: PLACEHOLDER_PHOTO_URL,
      uid: 'u1',
      email: 'a@example.com',
      emailVerified: true,
      paymentExpirationTime: 1900000000,
      signInMethods: ['password'],
      canTwitterLoggedIn: false,
      createdAt: 1893456000,
      isAnonymous: false,
    });
  });

  it('gives an anonymous user the placeholder e-mail and no methods', () => {
    const u = toUser(fb({ isAnonymous: true, email: null, providerData: [] }), {}, ['password']);
    expect(u.email).toBe(ANONYMOUS_EMAIL);
    expect(u.signInMethods).toEqual([]);
    expect(u.paymentExpirationTime).toBeNull();
  });

  it('marks X links and keeps the display name', () => {
    const u = toUser(fb({ displayName: 'ゆめ', providerData: [{ providerId: 'twitter.com' }] as FirebaseUser['providerData'] }), { paymentExpirationTime: 'junk' });
    expect(u.name).toBe('ゆめ');
    expect(u.canTwitterLoggedIn).toBe(true);
    expect(u.paymentExpirationTime).toBeNull();
  });
});
