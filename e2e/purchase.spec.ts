import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { uniqueEmail } from './support/emulator';
import { loginAsVerified, waitForAuth } from './support/session';
import { currentUid, fill, followMail, submit, visitorUid } from './support/accounts';
import { advanceSandboxClock, newestSubscription } from './support/payments';
import { api, waitForVideo } from './support/play';

/**
 * Purchase (issue 9 §3) in a real browser against the running stack: the Auth and Functions
 * emulators, the api, the payments sandbox (its hosted card form and 3-D Secure page in iframes
 * from their own origin) and the web. A visitor signs up by purchase with the link from the
 * local mailbox, registers the billing e-mail through the callable function, pays with 4242…
 * and lands on the success page; a declined card (…0002) gets a Japanese error and no
 * subscription; the 3-D Secure card (…3155) shows the challenge and succeeds after it. A premium
 * title plays right after the purchase; after a cancel it still plays until the period end, and
 * once the sandbox's clock has moved past that end the api refuses it and the play page shows the
 * upgrade prompt. The clock journey runs last: it moves the sandbox's one clock for everyone.
 * Desktop only: the pages are the same on phones, and each journey charges the sandbox.
 */

// The file's journeys run in order in one worker (playwright.config: fullyParallel false), so the
// clock journey, last, moves the sandbox clock after the others; not `serial`, so one failure
// does not skip the rest.

test.skip(({ isMobile }) => isMobile, 'desktop only: the same pages on phones');

/** Types a card into the processor's form (its inputs carry the standard autocomplete names). */
async function typeCard(page: Page, number: string) {
  const form = page.frameLocator('[data-testid="card-frame"] iframe');
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-ready', 'true');
  await form.locator('input[autocomplete="cc-name"]').fill('TARO YAMADA');
  await form.locator('input[autocomplete="cc-number"]').fill(number);
  await form.locator('input[autocomplete="cc-exp"]').fill('12 / 34');
  await form.locator('input[autocomplete="cc-csc"]').fill('123');
  await form.locator('#card-submit').click();
  return form;
}

/** A signed-in user opens /purchase/register-card and types a card into the processor's form. */
async function cardOnRegisterPage(page: Page, number: string) {
  await page.goto('/purchase/register-card');
  await waitForAuth(page);
  return typeCard(page, number);
}

/** A signed-in user pays with 4242… on /purchase/register-card and reaches the success page. */
async function subscribeWith4242(page: Page) {
  await cardOnRegisterPage(page, '4242 4242 4242 4242');
  await page.getByTestId('pay-button').click();
  await expect(page.getByTestId('purchase-success')).toContainText('に登録しました', { timeout: 30_000 });
  await expect(page.getByTestId('claim-refreshing')).toHaveCount(0, { timeout: 15_000 });
}

/** Plays the premium title from its play page until real video shows, then leaves. */
async function playPremium(page: Page) {
  await waitForVideo(page);
  await page.getByTestId('exit').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/play/'));
}

function challenge(page: Page): FrameLocator {
  return page.frameLocator('[data-testid="challenge-frame"] iframe');
}

test('visitor → /upgrade → sign-up by purchase → mailbox link → billing e-mail → card 4242 → success', async ({ page }) => {
  test.setTimeout(150_000);
  const email = uniqueEmail('buyer');

  // The plans come from the api, rendered on the server.
  await page.goto('/upgrade');
  await waitForAuth(page);
  const uid = await visitorUid(page);
  const plan = page.getByTestId('plan').first();
  await expect(plan.getByTestId('plan-price')).toHaveText(/^月額 [\d,]+円（税込）$/);
  await expect(page.getByTestId('purchase-legal-links').getByRole('link', { name: '特定商取引法に基づく表記' })).toHaveAttribute('href', '/tokushoho');
  const planId = await plan.getAttribute('data-plan-id');
  await plan.getByTestId('plan-cta').click();
  await page.waitForURL((u) => u.pathname === '/signup/purchase' && u.searchParams.get('plan') === planId);

  // The e-mail: the sign-in link is sent, "check your mail" with the local mailbox.
  await fill(page, 'メールアドレス', email);
  await submit(page);
  await expect(page.getByTestId('signup-purchase-sent')).toContainText('メールを確認してください');
  await expect(page.getByTestId('signup-purchase-sent')).toContainText(email);
  await expect(page.getByTestId('mailbox-link')).toBeVisible();

  // The link from the mailbox signs in by linking: the visitor's uid is kept.
  await followMail(page, email, 'signIn');
  await expect(page.getByTestId('link-success')).toContainText('メールアドレスを登録しました');
  await page.getByTestId('link-continue').click();
  await page.waitForURL((u) => u.pathname === '/purchase/register-email');
  expect(await currentUid(page)).toBe(uid);

  // The billing e-mail through the callable function, then the card.
  await expect(page.getByTestId('purchase-email')).toHaveText(email);
  await page.getByTestId('billing-email-submit').click();
  await page.waitForURL((u) => u.pathname === '/purchase/register-card');

  // The card is saved by the processor's form; the page moves on to the final confirmation.
  await typeCard(page, '4242 4242 4242 4242');
  const review = page.getByTestId('pay-review');
  await expect(review.getByTestId('review-card')).toHaveText('VISA •••• 4242');
  // A double click pays once.
  await page.getByTestId('pay-button').dblclick();
  const success = page.getByTestId('purchase-success');
  await expect(success).toContainText('に登録しました', { timeout: 30_000 });
  await expect(success.getByTestId('success-until')).toContainText('までご利用いただけます');
  await expect(page.getByTestId('claim-refreshing')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('claim-late')).toHaveCount(0);
  expect(await currentUid(page)).toBe(uid);

  // A premium title plays at once, from the success page's own link.
  await page.getByTestId('premium-titles').getByRole('link', { name: 'アマヤドリ・カフェ をプレイする' }).click();
  await page.waitForURL((u) => u.pathname === '/play/amayadori-cafe');
  await playPremium(page);

  // The claim is in the browser at once: /upgrade says the plan is active.
  await page.goto('/upgrade');
  await expect(page.getByTestId('upgrade-active')).toBeVisible();

  // Settings: 有効, the card, one payment (charged once).
  await page.goto('/settings/purchase');
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-kind', 'active');
  await expect(page.getByTestId('settings-card')).toContainText('VISA •••• 4242');
  await expect(page.getByTestId('payment-row')).toHaveCount(1);
  await expect(page.getByTestId('renews-on')).toBeVisible();

  // On a phone (390 px) the history's status stays on one line ("支払い済み" broke a character a line).
  await page.setViewportSize({ width: 390, height: 844 });
  const status = page.getByTestId('payment-row').getByTestId('payment-status');
  await expect(status).toHaveText('支払い済み');
  const lineHeight = await status.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.6);
  expect((await status.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
});

test('a declined card (4000 0000 0000 0002): a Japanese error, the form again, no subscription', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await loginAsVerified(page);
  const form = await cardOnRegisterPage(page, '4000 0000 0000 0002');
  await expect(page.getByTestId('purchase-error')).toHaveText(/[ぁ-んァ-ン一-龯]/);
  await expect(form.locator('#card-error')).not.toBeEmpty();
  await expect(page.getByTestId('card-frame')).toBeVisible();
  await expect(page.getByTestId('pay-review')).toHaveCount(0);
  await expect(page.getByTestId('purchase-success')).toHaveCount(0);
  const list = await api<{ subscriptions: unknown[] }>('/api/subscriptions', user.idToken);
  expect(list.status).toBe(200);
  expect(list.body.subscriptions).toHaveLength(0);
  await page.goto('/settings/purchase');
  await expect(page.getByText('ご契約中のプランはありません')).toBeVisible();
});

test('3-D Secure (4000 0025 0000 3155): the challenge, then success', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await loginAsVerified(page);
  await cardOnRegisterPage(page, '4000 0025 0000 3155');
  await page.getByTestId('pay-button').click();
  await expect(page.getByTestId('challenge-step')).toContainText('本人認証（3-Dセキュア）が必要です', { timeout: 30_000 });
  await expect(challenge(page).locator('h1')).toHaveText('本人認証（3-Dセキュア）');
  await challenge(page).locator('#challenge-complete').click();
  await expect(page.getByTestId('purchase-success')).toContainText('に登録しました', { timeout: 30_000 });
  const list = await api<{ subscriptions: { status: string }[] }>('/api/subscriptions', user.idToken);
  expect(list.body.subscriptions.map((s) => s.status)).toEqual(['active']);
});

test('cancel: still premium until the period end; past it (sandbox clock) the title is refused with the upgrade prompt', async ({ page }) => {
  test.setTimeout(180_000);
  const user = await loginAsVerified(page);
  await subscribeWith4242(page);

  // Cancel at the period end, from the settings page.
  await page.goto('/settings/purchase');
  await page.getByTestId('cancel-open').click();
  await page.getByTestId('cancel-confirm').click();
  await expect(page.getByTestId('plan-status')).toContainText('解約済み（期間の終わりまで有効）');
  await expect(page.getByTestId('ends-on')).toBeVisible();
  await expect(page.getByTestId('resume')).toBeVisible();
  const cancelled = await newestSubscription(user.idToken);
  expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true });

  // Still premium: no prompt on the title page, and the title plays.
  await page.goto('/title/amayadori-cafe');
  await expect(page.getByTestId('premium-badge')).toBeVisible();
  await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
  await page.getByTestId('play-button').click();
  await page.waitForURL((u) => u.pathname === '/play/amayadori-cafe');
  await playPremium(page);

  // The sandbox's clock moves past the period end: the subscription ends (a webhook).
  await advanceSandboxClock(cancelled!.current_period_end - Math.floor(Date.now() / 1000) + 2 * 86_400);
  await expect.poll(async () => (await newestSubscription(user.idToken))?.status, { timeout: 30_000, message: 'the subscription has ended' }).toBe('canceled');

  // The api refuses the premium title; the play page shows the upgrade prompt.
  await page.goto('/play/amayadori-cafe');
  const failure = page.getByTestId('play-failure');
  await expect(failure).toHaveAttribute('data-failure', 'subscription_required', { timeout: 30_000 });
  await expect(failure).toContainText('プラン');
  await expect(failure.getByTestId('upgrade-link')).toHaveAttribute('href', '/upgrade');

  // The browser has the ended claim now: the title page prompts too, and settings say 期限切れ.
  await page.goto('/title/amayadori-cafe');
  await expect(page.getByTestId('upgrade-prompt')).toBeVisible();
  await expect(page.getByTestId('upgrade-link')).toHaveAttribute('href', '/upgrade');
  await page.goto('/settings/purchase');
  await expect(page.getByTestId('plan-status')).toHaveAttribute('data-kind', 'expired');
  await expect(page.getByTestId('plan-status')).toContainText('期限切れ');
});
