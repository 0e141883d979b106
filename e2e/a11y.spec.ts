/**
 * Accessibility (issue 12): axe-core over every route of the spec's route table (and our own
 * extra routes), signed out and signed in with a verified e-mail, at the phone (the `phone`
 * project, 412 px) and desktop (1280 px) widths, in the dark and the light theme; plus the states
 * that only exist after an action (the login modal, the route-blocked modal, the play page
 * starting and refused). Any violation of WCAG 2.0–2.2 A/AA or of axe's best practices fails,
 * one soft failure per page: the route, and each violation's rule id and element selectors.
 *
 * Then the keyboard: every control of a set of pages is reached by Tab and shows a focus ring,
 * and the login modal keeps focus inside (Tab and Shift+Tab cycle), closes on Escape and gives
 * focus back to the control that opened it (components/modal/useFocusTrap.ts).
 *
 * Kept short (it runs in every `npm test`, about 2.5 min on two workers): one page per tour,
 * loaded once and then navigated as the app's links do; routes that only redirect are not
 * scanned twice; axe runs in the page itself (legacy mode: no extra blank page per scan, and
 * the payment processor's cross-origin card frame, Stripe's in production, is not scanned);
 * and no game starts (the start call is held or refused; streaming is play.spec.ts's).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { EXTRA_ROUTES, OPEN_PLAY_GAME_ID, ROUTE_ACCESS, SPEC_ROUTES } from '../lib/routes/rules';
import { STORAGE_KEYS } from '../lib/storage/keys';
import { loginAsVerified, waitForAuth } from './support/session';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];
type Theme = 'dark' | 'light';

/** The title the pages show (a real one), and the play page a signed-in user opens. */
const TITLE_ID = 'hoshifuru-toshokan';
const START = /\/v1\/game\/[^/]+\/start(\?|$)/;

/** A concrete path for a route pattern (real ids where the page needs one). */
function concrete(pattern: string, signedIn: boolean): string {
  if (pattern === '/title/[id]') return `/title/${TITLE_ID}`;
  if (pattern === '/play/[id]') return `/play/${signedIn ? TITLE_ID : OPEN_PLAY_GAME_ID}`;
  if (pattern === '/magazine/[slug]') return '/magazine/hajimari-no-eki-review';
  if (pattern === '/search') return '/search?q=%E3%81%82';
  return pattern.replace('[id]', 'some-id');
}

/**
 * What a tour scans: routes that show a page of their own to that user (not a redirect home),
 * each with whether it must be loaded afresh rather than reached by a link (a visitor's
 * /settings: the guard decides it on the page load).
 */
function tourOf(signedIn: boolean): { path: string; reload: boolean }[] {
  return [...SPEC_ROUTES, ...EXTRA_ROUTES]
    .filter((pattern) => {
      const access = ROUTE_ACCESS[pattern];
      if (signedIn) return access !== 'unknownOnly';
      // A visitor is sent home from verified-only pages, except the open demo's play page and
      // /settings (its own page on a phone, the settings-wide modal on a desktop).
      return access !== 'verifiedOnly' || pattern === '/play/[id]' || pattern === '/settings';
    })
    .map((pattern) => ({ path: concrete(pattern, signedIn), reload: !signedIn && pattern === '/settings' }));
}

/** Waits until what a page shows is settled: auth known, loading gates gone, modals faded in. */
async function settle(page: Page) {
  await waitForAuth(page);
  await expect(page.locator('h1').first()).toBeAttached();
  // A page behind a modal (the settings-wide modal of /settings) may keep its gate.
  await page.waitForFunction(
    () => {
      const overlay = document.querySelector('[data-testid="modal-overlay"]');
      if (overlay) return getComputedStyle(overlay).opacity === '1';
      return !document.querySelector('[data-testid="loading-gate"]');
    },
    undefined,
    { timeout: 20_000 },
  );
}

/**
 * Scans the page as it is now. Each page's violations are a soft failure of their own (the tour
 * goes on and the report lists every page), one line per violation: where, rule id, impact,
 * help and up to five element selectors. Only violations are collected (axe's passes and
 * incompletes are the slow part of its report).
 */
async function scan(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).options({ resultTypes: ['violations'] }).setLegacyMode(true).analyze();
  const lines = violations.map((v) => {
    const targets = v.nodes.map((n) => n.target.join(' ')).slice(0, 5);
    const more = v.nodes.length > 5 ? ` (+${v.nodes.length - 5})` : '';
    return `${v.id} [${v.impact}] ${v.help}: ${targets.join(' | ')}${more}`;
  });
  expect.soft(lines, `axe violations on ${where}:\n${lines.join('\n')}`).toEqual([]);
}

/** Sets the theme before any page script runs (ThemeSwitch reads it after hydration). */
async function useTheme(page: Page, theme: Theme) {
  await page.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [STORAGE_KEYS.theme, theme] as const);
}

/**
 * Opens a path: the first by loading it, the next ones as the app's own links do (the router's
 * client-side navigation), which renders the same page without reloading the app each time.
 */
async function open(page: Page, path: string, reload: boolean) {
  const viaRouter =
    reload === false &&
    (await page.evaluate(async (to) => {
      const router = (window as unknown as { next?: { router?: { push(url: string): Promise<boolean> } } }).next?.router;
      if (!router) return false;
      await router.push(to);
      return true;
    }, path).catch(() => false));
  if (!viaRouter) await page.goto(path);
}

/** Visits every route of a tour in one page and scans each distinct page it lands on. */
async function tour(page: Page, signedIn: boolean, theme: Theme): Promise<void> {
  const seen = new Set<string>();
  let dialogOpen = true; // the first page is loaded
  for (const { path, reload } of tourOf(signedIn)) {
    await open(page, path, reload || dialogOpen);
    if (path.startsWith('/play/')) await settlePlay(page);
    else await settle(page);
    const landed = new URL(page.url());
    dialogOpen = (await page.getByRole('dialog').count()) > 0;
    const key = `${landed.pathname}${landed.search}|${dialogOpen}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await scan(page, `${path}${landed.pathname !== path.split('?')[0] ? ` → ${landed.pathname}` : ''} (${theme} theme, ${signedIn ? 'signed in' : 'signed out'})`);
  }
}

/** The play page in whatever state it reaches without a stream: start progress or a failure. */
async function settlePlay(page: Page) {
  await waitForAuth(page);
  await expect(page.getByTestId('start-progress').or(page.getByTestId('play-failure'))).toBeVisible({ timeout: 20_000 });
}

/**
 * The theme of each tour. Four tours (two widths × signed out / in) and two themes: each theme
 * is seen at each width and in each sign-in state (styles/theme.test.ts checks every colour
 * pair of both themes besides).
 */
function themeOf(project: string, signedIn: boolean): Theme {
  return (project === 'phone') === signedIn ? 'dark' : 'light';
}

// The phone project's Pixel 7 renders at 2.6 device pixels per CSS pixel: the same layout at 1
// renders (and is scanned) much faster on the two cores the whole suite shares.
test.use({ deviceScaleFactor: 1 });

test.describe('axe: no violations', () => {
  test.describe.configure({ mode: 'parallel' });
  test.beforeEach(async ({ page }) => {
    // No game starts here: the start call is refused (the play page shows its failure panel).
    // Streaming is play.spec.ts's.
    await page.route(START, (route) => route.abort());
  });

  test('signed out: every route, the login and route-blocked modals, the play page starting', async ({ page }, info) => {
    test.setTimeout(150_000);
    const theme = themeOf(info.project.name, false);
    await useTheme(page, theme);
    await tour(page, false, theme);

    // The login modal, opened from the header.
    await page.goto('/');
    await settle(page);
    await page.getByTestId('header-login').click();
    await expect(page.getByTestId('social-login')).toBeVisible();
    await settle(page);
    await scan(page, `/ with the login modal (${theme} theme)`);

    // A verified-only page followed from a link: the route-blocked modal.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.locator('a[href="/mylist"]').filter({ visible: true }).first().click();
    await expect(page.getByTestId('route-blocked-modal')).toBeVisible();
    await settle(page);
    await scan(page, `/ with the route-blocked modal (${theme} theme)`);

    // The open demo while its start call has not answered: the start progress.
    await page.unroute(START);
    let release = () => {};
    await page.route(START, (route) => new Promise<void>((done) => (release = () => void route.abort().finally(done))));
    await page.goto(`/play/${OPEN_PLAY_GAME_ID}`);
    await expect(page.getByTestId('start-progress')).toBeVisible({ timeout: 20_000 });
    await scan(page, `/play/${OPEN_PLAY_GAME_ID} starting (${theme} theme)`);
    release();
  });

  test('signed in with a verified e-mail: every route', async ({ page }, info) => {
    test.setTimeout(150_000);
    const theme = themeOf(info.project.name, true);
    await useTheme(page, theme);
    await loginAsVerified(page);
    await tour(page, true, theme);
  });
});

/** What has focus now: its test id or name, whether it is inside the dialog, and its ring. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: 'body', inDialog: false, ring: false };
    const cs = getComputedStyle(el);
    const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 && cs.outlineColor !== 'rgba(0, 0, 0, 0)') || cs.boxShadow !== 'none';
    return {
      name: el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName,
      inDialog: !!el.closest('[role="dialog"]'),
      ring: ring && el.matches(':focus-visible'),
    };
  });
}

/**
 * Numbers every control a keyboard user should reach (visible, enabled, in the tab order; one
 * per radio group) and answers how many there are.
 */
async function numberControls(page: Page): Promise<number> {
  return page.evaluate(() => {
    const selector = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
    document.querySelectorAll<HTMLElement>('[data-tab-index-for-test]').forEach((el) => delete el.dataset.tabIndexForTest);
    const radios = new Set<string>();
    const all = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((el) => {
      if (el.tabIndex < 0 || el.closest('[inert], [aria-hidden="true"]') || !el.checkVisibility({ visibilityProperty: true })) return false;
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        if (radios.has(el.name)) return false;
        radios.add(el.name);
      }
      return true;
    });
    all.forEach((el, i) => (el.dataset.tabIndexForTest = String(i)));
    return all.length;
  });
}

/**
 * Tabs through the whole page: every control is reached and shows a focus ring. The page notes
 * each focused element itself (on focusin, when :focus-visible applies), so a Tab costs one
 * round trip.
 */
async function tabThrough(page: Page, where: string): Promise<string[]> {
  const count = await numberControls(page);
  await page.evaluate(() => {
    const w = window as unknown as { __focusLog?: { index: number; name: string; ring: boolean }[] };
    // Tab starts from the top of the page: a (not tabbable) marker there has focus.
    let start = document.getElementById('tab-start-for-test');
    if (!start) {
      start = Object.assign(document.createElement('span'), { id: 'tab-start-for-test', tabIndex: -1 });
      document.body.prepend(start);
    }
    start.focus();
    if (!w.__focusLog) {
      document.addEventListener('focusin', (e) => {
        const el = e.target as HTMLElement;
        const cs = getComputedStyle(el);
        const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 && cs.outlineColor !== 'rgba(0, 0, 0, 0)') || cs.boxShadow !== 'none';
        w.__focusLog!.push({
          index: Number(el.dataset.tabIndexForTest ?? -1),
          name: el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName,
          ring: ring && el.matches(':focus-visible'),
        });
      });
    }
    w.__focusLog = [];
  });
  for (let i = 0; i < count + 2; i++) await page.keyboard.press('Tab');
  const log = await page.evaluate(() => (window as unknown as { __focusLog: { index: number; name: string; ring: boolean }[] }).__focusLog);
  const reached = new Set(log.map((f) => f.index));
  const problems = log.filter((f) => !f.ring).map((f) => `${where}: no visible focus ring on "${f.name}"`);
  const missed = await page.evaluate((seen) => Array.from(document.querySelectorAll<HTMLElement>('[data-tab-index-for-test]')).filter((el) => !seen.includes(Number(el.dataset.tabIndexForTest))).map((el) => el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName), [...reached]);
  problems.push(...missed.map((m) => `${where}: "${m}" is not reached by Tab`));
  return [...new Set(problems)];
}

test.describe('keyboard', () => {
  test.describe.configure({ mode: 'parallel' });

  test('the login modal keeps focus inside, closes on Escape and gives focus back to its opener', async ({ page }) => {
    await page.goto('/');
    await settle(page);
    // Reach the header's ログイン by keyboard alone, and open the modal with Enter.
    await page.locator('body').focus();
    for (let i = 0; i < 30 && (await focused(page)).name !== 'header-login'; i++) await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('header-login');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'ログイン・新規登録' });
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('social-login')).toBeVisible();
    expect((await focused(page)).inDialog).toBe(true);

    // Tab and Shift+Tab cycle inside: the dialog's five controls, then round again.
    const stops = await dialog.locator('a[href], button').count();
    const forward: string[] = [];
    for (let i = 0; i < stops * 2 + 1; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      expect(f.inDialog, `Tab ${i + 1} stays in the dialog (${f.name})`).toBe(true);
      expect(f.ring, `${f.name} shows a focus ring`).toBe(true);
      forward.push(f.name);
    }
    expect(forward.slice(stops, stops * 2)).toEqual(forward.slice(0, stops));
    for (let i = 0; i < stops + 1; i++) {
      await page.keyboard.press('Shift+Tab');
      expect((await focused(page)).inDialog, `Shift+Tab ${i + 1} stays in the dialog`).toBe(true);
    }

    // Escape closes it; focus is back on ログイン.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(await focused(page)).toMatchObject({ name: 'header-login', ring: true });

    // The close button by keyboard does the same.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('modal-close');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    expect((await focused(page)).name).toBe('header-login');
  });

  test('every control is reached by Tab and shows a focus ring', async ({ page }) => {
    test.setTimeout(120_000);
    await page.route(START, (route) => route.abort());
    const problems: string[] = [];
    for (const [i, path] of ['/', `/title/${TITLE_ID}`, '/search?q=%E3%81%82', '/email/login', '/upgrade'].entries()) {
      await open(page, path, i === 0);
      await settle(page);
      problems.push(...(await tabThrough(page, path)));
    }
    // The play page's failure panel (the start is refused here), by keyboard too.
    await page.goto(`/play/${OPEN_PLAY_GAME_ID}`);
    await expect(page.getByTestId('play-failure')).toBeVisible({ timeout: 20_000 });
    problems.push(...(await tabThrough(page, `/play/${OPEN_PLAY_GAME_ID} (failure)`)));
    // Signed in: the settings and my list.
    await loginAsVerified(page);
    for (const path of ['/settings', '/mylist']) {
      await open(page, path, false);
      await settle(page);
      problems.push(...(await tabThrough(page, path)));
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
