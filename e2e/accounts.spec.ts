import { expect, test } from '@playwright/test';
import { uniqueEmail, createVerifiedUser } from './support/emulator';
import { waitForAuth } from './support/session';
import { currentUid, expectAuthState, fill, followMail, mailHref, submit, visitorUid } from './support/accounts';

/**
 * Accounts (issue 3) in a real browser against the Auth emulator: the two main journeys of the
 * issue, then bad input. The long e-mail journey and the bad input run on desktop only (the
 * forms are the same on phones); the X journey, which goes through the login modal, runs on
 * both. This keeps the suite around a minute on two cores.
 */

test.describe('journeys', () => {
  test('visitor → sign up → mailbox → verify → log in → change password → change e-mail → log out', async ({ page, isMobile }) => {
    test.skip(isMobile, 'desktop only: the same forms as on phones, and the longest journey');
    test.setTimeout(120_000);
    const email = uniqueEmail('journey');
    const newEmail = uniqueEmail('moved');

    // A visitor is signed in anonymously.
    await page.goto('/email/signup');
    await waitForAuth(page);
    const uid = await visitorUid(page);

    // Sign up: verification mail, signed out at once (a visitor again).
    await fill(page, 'メールアドレス', email);
    await fill(page, 'パスワード', 'first-pass-1');
    await fill(page, 'パスワード（確認）', 'first-pass-1');
    await submit(page);
    await expect(page.getByTestId('signup-sent')).toContainText(email);
    await expectAuthState(page, 'anonymous');
    expect(await currentUid(page)).not.toBe(uid);

    // The mailbox: the "mail sent" message links to it; the verification link opens our page.
    await page.getByTestId('mailbox-link').click();
    await page.waitForURL(/\/dev\/mailbox\?email=/);
    const verifyHref = await followMail(page, email, 'verifyEmail');
    await expect(page.getByTestId('link-success')).toContainText('確認が完了しました');
    await page.getByTestId('link-continue').click();
    await page.waitForURL((u) => u.pathname === '/email/login');

    // Log in: the account is the visitor's (uid kept by linking).
    await fill(page, 'メールアドレス', email);
    await fill(page, 'パスワード', 'first-pass-1');
    await submit(page);
    await page.waitForURL((u) => u.pathname === '/');
    await expectAuthState(page, 'verified');
    expect(await currentUid(page)).toBe(uid);

    // The verification link again (replayed callback URL): refused with a clear message.
    await page.goto(verifyHref);
    await expect(page.getByTestId('link-error')).toContainText('無効か、すでに使用されています');

    // Change the password (current password first).
    await page.goto('/settings/password');
    await fill(page, '現在のパスワード', 'first-pass-1');
    await fill(page, '新しいパスワード', 'second-pass-2');
    await fill(page, '新しいパスワード（確認）', 'second-pass-2');
    await submit(page);
    await expect(page.getByTestId('password-changed')).toBeVisible();

    // Change the e-mail: verify-before-update through the mailbox.
    await page.goto('/settings/email');
    await expect(page.getByTestId('current-email')).toContainText(email);
    await fill(page, '新しいメールアドレス', newEmail);
    await fill(page, '現在のパスワード', 'second-pass-2');
    await submit(page);
    await expect(page.getByTestId('email-change-sent')).toContainText(newEmail);
    await followMail(page, newEmail, 'verifyAndChangeEmail');
    await expect(page.getByTestId('link-success')).toContainText(newEmail);
    await page.goto('/settings/account');
    await expect(page.getByTestId('account-email')).toHaveText(newEmail);
    await expect(page.getByTestId('account-uid')).toHaveText(uid);

    // Log out: a visitor again.
    await page.goto('/settings');
    await page.getByTestId('logout').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'ログアウトしました' })).toBeVisible();
    await expectAuthState(page, 'anonymous');
    // home, with no notice of /settings left over it (the wide screen's login notice stayed once)
    await page.waitForURL((u) => u.pathname === '/');
    await page.waitForTimeout(500);
    await expect(page.getByTestId('settings-wide-modal')).toHaveCount(0);

    // Both changes hold: the new address and the new password log in to the same account.
    await page.goto('/email/login');
    await waitForAuth(page);
    await fill(page, 'メールアドレス', newEmail);
    await fill(page, 'パスワード', 'second-pass-2');
    await submit(page);
    await expectAuthState(page, 'verified');
    expect(await currentUid(page)).toBe(uid);
  });

  test('visitor → X (local consent) → linked account with the same uid → e-mail by sign-in link', async ({ page }) => {
    test.setTimeout(90_000);
    const handle = `yume${Date.now().toString(36).slice(-8)}`;
    await page.goto('/title/hajimari-no-eki');
    await waitForAuth(page);
    const uid = await visitorUid(page);

    // Login modal: the social button becomes a spinner, the e-mail link disappears, then X.
    await page.getByTestId('header-login').click();
    const modal = page.getByTestId('login-modal');
    await modal.getByTestId('social-login').click();
    await page.waitForURL(/\/dev\/x-consent\?purpose=login$/);
    await expect(page.getByTestId('x-consent')).toContainText('ユメキャスト があなたのアカウントへのアクセスを求めています');
    await fill(page, 'ユーザー名（@なし）', handle);
    await fill(page, '名前', 'ゆめみ');
    await page.getByTestId('x-consent-allow').click();

    // Back where the login started, signed in, same uid.
    await page.waitForURL((u) => u.pathname === '/title/hajimari-no-eki');
    await expectAuthState(page, 'verified');
    await expect(page.getByTestId('toast').filter({ hasText: 'ログインしました' })).toBeVisible();
    expect(await currentUid(page)).toBe(uid);
    await page.goto('/settings/account');
    await expect(page.getByTestId('account-twitter')).toHaveText('連携済み');
    await expect(page.getByTestId('account-name')).toHaveText('ゆめみ');
    await expect(page.getByTestId('account-uid')).toHaveText(uid);

    // Purchase needs an e-mail: the sign-in link returns to /purchase/link-callback and links it.
    const email = uniqueEmail('xlink');
    await page.goto('/purchase/register-email');
    await fill(page, 'メールアドレス', email);
    await submit(page);
    await expect(page.getByTestId('link-sent')).toContainText(email);
    const href = await mailHref(page, email, 'signIn');
    expect(href.startsWith('/purchase/link-callback?next=%2Fpurchase%2Fregister-card&mode=signIn&oobCode=')).toBe(true);
    // Open the link with its next= swapped for another site: the link works, the redirect does not.
    await page.goto(href.replace('next=%2Fpurchase%2Fregister-card', `next=${encodeURIComponent('https://evil.example/steal')}`));
    await expect(page.getByTestId('link-success')).toContainText('メールアドレスを登録しました');
    await expect(page).not.toHaveURL(/oobCode=/); // the one-time code leaves the address bar
    await expect(page.getByTestId('link-continue')).toHaveAttribute('href', '/purchase/register-card');
    await page.getByTestId('link-continue').click();
    await page.waitForURL((u) => u.pathname === '/purchase/register-card');
    expect(await currentUid(page)).toBe(uid);

    // The same link again, signed in with the address now registered: says so and leads on.
    await page.goto(href);
    await expect(page.getByTestId('link-registered')).toContainText(`メールアドレス（${email}）は登録済みで、ログインしています。`);
    await expect(page.getByTestId('purchase-link-callback')).not.toContainText('同じ端末・ブラウザ');
    await expect(page.getByTestId('link-continue')).toHaveAttribute('href', '/purchase/register-card');
  });
});

test.describe('bad input', () => {
  test.skip(({ isMobile }) => isMobile, 'forms are the same on phones; once is enough');

  test('log in: wrong password, unknown user, malformed e-mail; sign up: weak password, address in use', async ({ page }) => {
    const user = await createVerifiedUser();
    await page.goto('/email/login');
    await waitForAuth(page);
    await fill(page, 'メールアドレス', user.email);
    await fill(page, 'パスワード', 'wrong-password');
    await submit(page);
    await expect(page.getByTestId('form-error')).toHaveText('メールアドレスまたはパスワードが正しくありません。');
    await fill(page, 'メールアドレス', uniqueEmail('nobody'));
    await submit(page);
    // The same message as a wrong password: an address cannot be checked for an account.
    await expect(page.getByTestId('form-error')).toHaveText('メールアドレスまたはパスワードが正しくありません。');
    await expect(page.getByTestId('form-error')).toHaveAttribute('data-code', /auth\/(user-not-found|invalid-credential)/);
    await fill(page, 'メールアドレス', 'not-an-email');
    await submit(page);
    await expect(page.getByText('メールアドレスの形式が正しくありません。')).toBeVisible();
    await expectAuthState(page, 'anonymous');

    await page.goto('/email/signup');
    await waitForAuth(page);
    await fill(page, 'メールアドレス', uniqueEmail('weak'));
    await fill(page, 'パスワード', '12345');
    await fill(page, 'パスワード（確認）', '12345');
    await submit(page);
    await expect(page.getByText('パスワードは6文字以上で入力してください。')).toBeVisible();
    await fill(page, 'メールアドレス', user.email);
    await fill(page, 'パスワード', 'another-pass-1');
    await fill(page, 'パスワード（確認）', 'another-pass-1');
    await submit(page);
    await expect(page.getByTestId('form-error')).toContainText('すでに登録されています');
  });

  test('link codes: foreign, missing, wrong kind and expired get clear messages', async ({ page }) => {
    await page.goto('/email/link-callback?mode=verifyEmail&oobCode=FOREIGNcode12345&apiKey=x');
    await expect(page.getByTestId('link-error')).toContainText('無効か、すでに使用されています');
    await page.goto('/email/link-callback');
    await expect(page.getByTestId('link-error')).toContainText('無効か、すでに使用されています');
    await page.goto('/email/link-callback?mode=deleteAccount&oobCode=abcdef123');
    await expect(page.getByTestId('link-error')).toContainText('このリンクには対応していません');
    await page.goto('/email/link-callback?mode=resetPassword&oobCode=FOREIGNcode12345');
    await expect(page.getByTestId('link-error')).toContainText('無効か、すでに使用されています');
    // Expired: the emulator never expires codes, so answer as Firebase does for an old one.
    await page.route('**/identitytoolkit.googleapis.com/v1/accounts:resetPassword*', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 400, message: 'EXPIRED_OOB_CODE' } }) }),
    );
    await page.goto('/email/link-callback?mode=verifyEmail&oobCode=OLDcode1234567');
    await expect(page.getByTestId('link-error')).toContainText('有効期限が切れています');
    await page.goto('/purchase/link-callback?mode=signIn&oobCode=FOREIGNcode12345&apiKey=x');
    await expect(page.getByTestId('link-error')).toContainText('ログイン用リンクを確認できませんでした');
  });

  test('password reset through the mailbox, and open-redirect attempts are refused', async ({ page }) => {
    const user = await createVerifiedUser();
    await page.goto('/email/password/reset');
    await waitForAuth(page);
    await fill(page, 'メールアドレス', user.email);
    await submit(page);
    await expect(page.getByTestId('reset-sent')).toContainText(user.email);
    await followMail(page, user.email, 'resetPassword');
    await fill(page, '新しいパスワード', 'reset-pass-9');
    await fill(page, '新しいパスワード（確認）', 'reset-pass-9');
    await submit(page);
    await expect(page.getByTestId('link-success')).toContainText('パスワードを再設定しました');

    // ?next= pointing elsewhere is ignored after the login: we stay on this site.
    await page.goto(`/email/login?next=${encodeURIComponent('https://evil.example/')}`);
    await waitForAuth(page);
    await fill(page, 'メールアドレス', user.email);
    await fill(page, 'パスワード', 'reset-pass-9');
    await submit(page);
    await page.waitForURL((u) => u.pathname === '/');
    expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
    await expectAuthState(page, 'verified');

    // Callback pages never offer a way out either (the purchase one tells this signed-in user
    // the address is registered, with its way on).
    for (const [path, shown] of [
      ['/email/link-callback?mode=verifyEmail&oobCode=FOREIGNcode12345&continueUrl=https%3A%2F%2Fevil.example%2F', 'link-error'],
      ['/purchase/link-callback?next=%2F%2Fevil.example%2F&mode=signIn&oobCode=FOREIGNcode12345&apiKey=x', 'link-registered'],
    ]) {
      await page.goto(path);
      await expect(page.getByTestId(shown)).toBeVisible();
      for (const a of await page.locator('main a').all()) expect(await a.getAttribute('href')).not.toMatch(/evil/);
    }
  });

  test('a tampered or expired ID token gets a typed 401 at the api', async ({ request }) => {
    const api = process.env.API_URL || 'http://127.0.0.1:8180';
    const user = await createVerifiedUser();
    const [h, p] = user.idToken.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const expired = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url');
    for (const [token, code] of [
      [`${user.idToken}c2ln`, 'token_invalid'],
      [`${h}.${p.slice(0, -4)}AAAA.`, 'token_invalid'],
      [`${h}.${expired}.`, 'token_expired'],
    ]) {
      const r = await request.get(`${api}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status()).toBe(401);
      expect((await r.json()).error.code).toBe(code);
    }
    const ok = await request.get(`${api}/v1/me`, { headers: { authorization: `Bearer ${user.idToken}` } });
    expect(ok.status()).toBe(200);
  });
});
