/**
 * The e2e tests' view of a browser's account: the user the Firebase SDK keeps in it (uid, ID
 * token), the auth state the app reports, and the links of the local mailbox's mails.
 */
import { expect, type Page } from '@playwright/test';
import { interact } from './session';

/** What the Firebase SDK keeps of the signed-in user in this browser. */
interface StoredUser {
  uid?: string;
  stsTokenManager?: { accessToken?: string };
}

/**
 * The signed-in user as the Firebase SDK keeps it in this browser (IndexedDB), read without
 * creating the database or keeping it open: an empty database made by this read, or a
 * connection it held, would block the SDK's own opening (it deletes a database without its
 * store) and the sign-in with it.
 */
async function storedUser(page: Page): Promise<StoredUser | null> {
  return page.evaluate(
    () =>
      new Promise<StoredUser | null>((resolve) => {
        const open = indexedDB.open('firebaseLocalStorageDb');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('firebaseLocalStorage')) {
            db.close();
            return resolve(null);
          }
          const req = db.transaction('firebaseLocalStorage', 'readonly').objectStore('firebaseLocalStorage').getAll();
          req.onerror = () => (db.close(), resolve(null));
          req.onsuccess = () => {
            db.close();
            const rows = req.result as Array<{ fbase_key: string; value: StoredUser }>;
            resolve(rows.find((r) => r.fbase_key.startsWith('firebase:authUser:'))?.value ?? null);
          };
        };
      }),
  );
}

/** The signed-in user's uid, as the Firebase SDK keeps it in this browser. */
export async function currentUid(page: Page): Promise<string | null> {
  return (await storedUser(page))?.uid ?? null;
}

/** The signed-in user's ID token, as the Firebase SDK keeps it in this browser. */
export async function currentIdToken(page: Page): Promise<string | null> {
  return (await storedUser(page))?.stsTokenManager?.accessToken ?? null;
}

export async function authStateOf(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.auth);
}

export async function expectAuthState(page: Page, state: 'anonymous' | 'verified' | 'none') {
  await interact(page);
  await expect.poll(() => authStateOf(page), { timeout: 15_000 }).toBe(state);
}

/** The visitor's anonymous uid, once the app has signed it in. */
export async function visitorUid(page: Page): Promise<string> {
  await expectAuthState(page, 'anonymous');
  let uid: string | null = null;
  await expect.poll(async () => (uid = await currentUid(page))).toBeTruthy();
  return uid!;
}

/** The link of the newest mail of `kind` to `email` in the local mailbox (without opening it). */
export async function mailHref(page: Page, email: string, kind: string): Promise<string> {
  const mail = page.getByTestId('mail').and(page.locator(`[data-kind="${kind}"]`)).first();
  await expect(async () => {
    await page.goto(`/dev/mailbox?email=${encodeURIComponent(email)}`);
    await expect(mail).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return (await mail.getByTestId('mail-link').getAttribute('href'))!;
}

/**
 * Opens the local mailbox for `email` and follows the newest mail of `kind` (verifyEmail,
 * verifyAndChangeEmail, resetPassword, signIn). Answers the path it opened.
 */
export async function followMail(page: Page, email: string, kind: string): Promise<string> {
  const mail = page.getByTestId('mail').and(page.locator(`[data-kind="${kind}"]`)).first();
  await expect(async () => {
    await page.goto(`/dev/mailbox?email=${encodeURIComponent(email)}`);
    await expect(mail).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const href = (await mail.getByTestId('mail-link').getAttribute('href'))!;
  await mail.getByTestId('mail-link').click();
  await page.waitForURL((u) => href.startsWith(u.pathname));
  return href;
}

/** Fills a labelled field (exact label). */
export async function fill(page: Page, label: string, value: string) {
  await page.getByLabel(label, { exact: true }).fill(value);
}

export async function submit(page: Page) {
  await page.locator('main form').getByTestId('form-submit').click();
}
