/**
 * The one rule of who is a verified caller (id-token.ts isVerifiedCaller, notVerified): visitors
 * and unconfirmed e-mail + password addresses are not; X (twitter.com) members are whatever their
 * email_verified says; an e-mail link sign-in (password, confirmed) is. The integration test with
 * real emulator tokens is routes/verified.int.test.ts.
 */
import { isVerifiedCaller, notVerified, UNVERIFIED_EMAIL_MESSAGE } from './id-token';

describe('isVerifiedCaller', () => {
  it.each([
    ['anonymous', false, false],
    ['anonymous', true, false],
    ['password', false, false],
    ['password', true, true],
    ['twitter.com', false, true],
    ['twitter.com', true, true],
    ['google.com', false, true],
    ['custom', false, true],
    ['unknown', true, false],
  ])('%s with email_verified %s → %s', (provider, emailVerified, verified) => {
    expect(isVerifiedCaller(provider, emailVerified)).toBe(verified);
  });
});

describe('notVerified', () => {
  it('is 403 verified_required: the route’s wording for a visitor, the confirmation hint for an unconfirmed address', () => {
    const visitor = notVerified({ signInProvider: 'anonymous' }, 'マイリストは会員登録（ログイン）するとご利用いただけます。');
    expect([visitor.code, visitor.message]).toEqual(['verified_required', 'マイリストは会員登録（ログイン）するとご利用いただけます。']);
    const unconfirmed = notVerified({ signInProvider: 'password' }, 'マイリストは会員登録（ログイン）するとご利用いただけます。');
    expect([unconfirmed.code, unconfirmed.message]).toEqual(['verified_required', UNVERIFIED_EMAIL_MESSAGE]);
    expect(notVerified({ signInProvider: 'anonymous' }).message).toMatch(/会員登録/);
  });
});
