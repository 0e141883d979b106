import { expect, type Page } from '@playwright/test';
import { createVerifiedUser, type TestUser } from './emulator';

/**
 * On a visitor's public page Firebase Auth loads at the first interaction (lib/auth/loader.ts):
 * a key press (Shift, which does nothing else) is that interaction, as a user's first tap is.
 */
export async function interact(page: Page) {
  await page.keyboard.press('Shift');
}

/** Waits until the app has its first auth report (the loading gate is gone from the shell). */
export async function waitForAuth(page: Page) {
  await interact(page);
  await page.waitForFunction(() => document.documentElement.dataset.auth && document.documentElement.dataset.auth !== 'undefined');
}

/** Signs a fresh verified user in through the real /email/login form. */
export async function loginAsVerified(page: Page, user?: TestUser): Promise<TestUser> {
  const u = user ?? (await createVerifiedUser());
  await page.goto('/email/login');
  await waitForAuth(page);
  await page.getByLabel('メールアドレス').fill(u.email);
  await page.getByLabel('パスワード').fill(u.password);
  await page.locator('main form').getByRole('button', { name: 'ログイン' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.auth)).toBe('verified');
  return u;
}
