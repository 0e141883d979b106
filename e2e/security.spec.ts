import { expect, test, type Page } from '@playwright/test';
import { EXTRA_ROUTES, OPEN_PLAY_GAME_ID, ROUTE_ACCESS, SPEC_ROUTES } from '../lib/routes/rules';
import { loginAsVerified, waitForAuth } from './support/session';
import { hostSession, liveSessionId, waitForVideo } from './support/play';

/**
 * The web's Content-Security-Policy and Permissions-Policy at work (issue 10, docs/security.md):
 * every route, as a visitor and as a verified user, a client-side navigation, the payment
 * processor's card form in its frame and a streamed game run without a single policy violation
 * (the `securitypolicyviolation` event, in every frame, and the browser's console); styles are
 * applied under the nonce; an injected inline script or handler does not run.
 * Desktop only: the policy does not depend on the viewport (shell.spec.ts checks the headers on both).
 */

test.describe.configure({ mode: 'serial' });
test.skip(({ isMobile }) => isMobile, 'desktop only: the same policy on phones');

/** A concrete path for each route pattern, as in routes.spec.ts. */
function concrete(pattern: string): string {
  if (pattern === '/title/[id]') return `/title/${OPEN_PLAY_GAME_ID}`;
  if (pattern === '/play/[id]') return '/play/hoshifuru-toshokan';
  if (pattern === '/magazine/[slug]') return '/magazine/hajimari-no-eki-review';
  return pattern.replace('[id]', 'some-id');
}

/** Every violation of a policy the page meets from now on, as text (empty = none). */
async function watchPolicies(page: Page): Promise<string[]> {
  const seen: string[] = [];
  const note = (text: string) => {
    seen.push(text);
    console.log(`[policy] ${text.slice(0, 240)}`);
  };
  await page.exposeFunction('__policyViolation', note);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __policyViolation?: (t: string) => void }).__policyViolation;
      report?.(`${location.origin}${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  page.on('console', (m) => {
    if (/content.security.policy|permissions.policy|refused to/i.test(m.text())) note(`console ${m.type()} on ${page.url()}: ${m.text()}`);
  });
  return seen;
}

/** Opens a page and waits until its scripts run (the auth report) and its styles apply. */
async function open(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  await waitForAuth(page);
  // The global styles (styled-components) are applied: the dark theme's background, not the default.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), `${path} is styled`).not.toBe('rgba(0, 0, 0, 0)');
}

const ROUTES = [...SPEC_ROUTES, ...EXTRA_ROUTES].filter((r) => r !== '/play/[id]');

test('every public route as a visitor, the 404 page and a client-side navigation, with no policy violation', async ({ page }) => {
  test.setTimeout(300_000);
  // The walk opens no game (the streamed game is its own test below).
  await page.route(/\/v1\/game\/[^/]+\/start(\?|$)/, (route) => route.abort());
  const seen = await watchPolicies(page);
  for (const pattern of ROUTES.filter((r) => ROUTE_ACCESS[r] !== 'verifiedOnly')) await open(page, concrete(pattern));
  await open(page, '/no/such/page');
  // From a page rendered with a nonce to a title, in the browser (chunks loaded by our scripts).
  await open(page, '/');
  await page.locator('a[href^="/title/"]').first().click();
  await page.waitForURL((u) => u.pathname.startsWith('/title/'));
  await expect(page.locator('h1').first()).toBeVisible();
  expect(seen).toEqual([]);
});

test('every route signed in, with no policy violation', async ({ page }) => {
  test.setTimeout(300_000);
  await page.route(/\/v1\/game\/[^/]+\/start(\?|$)/, (route) => route.abort());
  const seen = await watchPolicies(page);
  await loginAsVerified(page);
  for (const pattern of ROUTES.filter((r) => ROUTE_ACCESS[r] !== 'unknownOnly')) await open(page, concrete(pattern));
  expect(seen).toEqual([]);
});

test('a page rendered for the request puts its nonce on every script and style; a prerendered page has none', async ({ page }) => {
  const seen = await watchPolicies(page);
  // /brand is rendered per request (/ is prerendered since issue 12).
  const res = await page.goto('/brand');
  await waitForAuth(page);
  const csp = (await res!.allHeaders())['content-security-policy'];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  // Every script and style tag the server wrote carries it (scripts our code adds later need none:
  // 'strict-dynamic' trusts what a trusted script loads).
  const html = await res!.text();
  const tagsIn = (re: RegExp) => [...html.matchAll(re)].map((m) => m[0]);
  const scripts = tagsIn(/<script\b[^>]*>/g).filter((t) => !/type="application\/(ld\+)?json"/.test(t));
  // The server writes the polyfills and the boot gate (lib/security/bootGate.ts); the gate adds
  // Next's chunks, with the same nonce (checked in the browser below).
  expect(scripts.length).toBeGreaterThanOrEqual(2);
  for (const tag of [...scripts, ...tagsIn(/<style\b[^>]*>/g), ...tagsIn(/<link\b[^>]*rel="(stylesheet|preload)"[^>]*as="(script|style)"[^>]*>/g)]) {
    expect(tag).toContain(`nonce="${nonce}"`);
  }
  const tags = await page.evaluate(() => ({
    styles: [...document.querySelectorAll('style[data-styled]')].map((s) => (s as HTMLStyleElement).nonce),
    // The browser hides the attribute's value from the DOM (nonce hiding), the property keeps it.
    attributes: [...document.querySelectorAll('[nonce]')].map((e) => e.getAttribute('nonce')),
    chunks: (JSON.parse(document.getElementById('__yc_boot')?.textContent ?? '[]') as string[]).map(
      (src) => (document.querySelector(`script[src="${src}"]`) as HTMLScriptElement | null)?.nonce ?? 'missing',
    ),
  }));
  expect(tags.chunks.length).toBeGreaterThan(3);
  expect(new Set(tags.chunks)).toEqual(new Set([nonce]));
  // styled-components' own <style> in the browser carries it too (the server's one is replaced).
  expect(tags.styles.length).toBeGreaterThan(0);
  expect(new Set(tags.styles)).toEqual(new Set([nonce]));
  expect(new Set(tags.attributes)).toEqual(new Set(['']));

  const login = await page.goto('/email/login');
  await waitForAuth(page);
  const loginCsp = (await login!.allHeaders())['content-security-policy'];
  expect(loginCsp).not.toContain("'nonce-");
  // Our own files, plus the hashes of the build's inline bootstrap when it has one (Turbopack; the
  // webpack build has none): no other inline script may run.
  expect(loginCsp).toMatch(/script-src 'self'( 'sha256-[^']+')*( https:\/\/[^\s;]+)*;/);
  expect(await page.evaluate(() => [...document.querySelectorAll('script')].filter((s) => s.nonce).length)).toBe(0);
  expect(seen).toEqual([]);
});

test('injected markup runs nothing; on a prerendered page no script but ours runs at all', async ({ page }) => {
  const seen = await watchPolicies(page);
  for (const path of ['/', '/email/login']) {
    await open(page, path);
    // Markup injected into the page (what an XSS through HTML would do): its handlers do not run.
    const handlers = await page.evaluate(async () => {
      const w = window as unknown as { __pwned?: number };
      document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.__pwned=1" onerror="window.__pwned=1"><svg onload="window.__pwned=1"></svg>');
      await new Promise((r) => setTimeout(r, 300));
      return w.__pwned ?? 0;
    });
    expect(handlers, path).toBe(0);
  }
  // Without a nonce the policy trusts nothing inline and no other origin, even from our own code
  // (with a nonce, 'strict-dynamic' lets our trusted scripts add scripts: that is how chunks load).
  const added = await page.evaluate(async () => {
    const w = window as unknown as { __inline?: number; __foreign?: string };
    const inline = document.createElement('script');
    inline.textContent = 'window.__inline = 1';
    document.body.appendChild(inline);
    const foreign = document.createElement('script');
    foreign.src = 'https://evil.example/x.js';
    const blocked = new Promise<string>((resolve) => {
      foreign.onerror = () => resolve('blocked');
      foreign.onload = () => resolve('loaded');
    });
    document.body.appendChild(foreign);
    return { inline: w.__inline ?? 0, foreign: await blocked };
  });
  expect(added).toEqual({ inline: 0, foreign: 'blocked' });
  // The browser said why.
  expect(seen.some((v) => /script-src-attr blocked inline/.test(v))).toBe(true);
  expect(seen.some((v) => /script-src-elem blocked (inline|https:\/\/evil\.example)/.test(v))).toBe(true);
});

test('the payment processor’s card form loads in its frame', async ({ page }) => {
  test.setTimeout(90_000);
  const seen = await watchPolicies(page);
  await loginAsVerified(page);
  await page.goto('/purchase/register-card');
  await waitForAuth(page);
  await expect(page.getByTestId('card-frame')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  const form = page.frameLocator('[data-testid="card-frame"] iframe');
  await expect(form.locator('input[autocomplete="cc-number"]')).toBeVisible();
  expect(seen).toEqual([]);
});

test('a streamed game plays, takes input and saves a screenshot under the policy', async ({ page }) => {
  test.setTimeout(150_000);
  const seen = await watchPolicies(page);
  const { idToken } = await loginAsVerified(page);
  await page.goto('/play/hoshifuru-toshokan');
  await waitForVideo(page);
  const sessionId = await liveSessionId(idToken);
  await page.keyboard.press('Enter');
  const input = page.getByTestId('input-layer');
  for (let i = 0; i < 6; i++) {
    await input.click({ position: { x: 100, y: 60 } });
    await page.waitForTimeout(200);
  }
  await expect.poll(async () => ((await hostSession(sessionId))?.counters?.inputs ?? 0)).toBeGreaterThan(3);
  await page.getByTestId('screenshot').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'スクリーンショットを保存しました' })).toBeVisible();
  await page.getByTestId('exit').click();
  await page.waitForURL(/\/title\/hoshifuru-toshokan$/);
  expect(seen).toEqual([]);
});
