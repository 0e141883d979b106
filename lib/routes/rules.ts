/**
 * Route rules: the one place that says who may open which page (spec section 2).
 * Keys are Next.js route patterns (router.pathname), so dynamic pages are listed once.
 */
import { OPEN_PLAY_GAME_ID } from '@/lib/api-types/openDemo';

export { OPEN_PLAY_GAME_ID };

export type AccessClass = 'open' | 'unknownOnly' | 'verifiedOnly';

export const ROUTE_ACCESS: Readonly<Record<string, AccessClass>> = {
  '/': 'open',
  '/title/[id]': 'open',
  '/upgrade': 'open',
  '/email/login': 'unknownOnly',
  '/email/signup': 'unknownOnly',
  '/email/password/reset': 'unknownOnly',
  '/signup/purchase': 'open',
  '/play/[id]': 'verifiedOnly',
  '/signin': 'unknownOnly',
  '/settings': 'verifiedOnly',
  '/settings/account': 'verifiedOnly',
  '/settings/email': 'verifiedOnly',
  '/settings/password': 'verifiedOnly',
  '/settings/purchase': 'verifiedOnly',
  '/search': 'open',
  '/brand': 'open',
  '/mylist': 'verifiedOnly',
  '/mylist/screenshot': 'verifiedOnly',
  '/mylist/screenshot/[id]': 'verifiedOnly',
  '/mylist/history': 'verifiedOnly',
  '/mylist/bookmark': 'verifiedOnly',
  '/purchase/register-email': 'verifiedOnly',
  '/purchase/register-card': 'verifiedOnly',
  '/purchase/link-callback': 'open',
  '/email/link-callback': 'open',
  '/privacy': 'open',
  '/terms': 'open',
  '/purpose': 'open',
  '/error': 'open',
  // Our own routes, beyond the spec's table (issue 5: the magazine; issue 9: the 特商法 page).
  '/magazine': 'open',
  '/magazine/[slug]': 'open',
  // 特定商取引法に基づく表記 (issue 9: required for the paid plan).
  '/tokushoho': 'open',
  '/404': 'open',
  '/_error': 'open',
};

/**
 * Public pages a visitor can use without a user: Firebase Auth waits for the visitor's first
 * interaction there instead of loading with the page (issue 12, lib/auth/loader.ts). Every other
 * page (members' pages, sign-in forms, redirects' returns) starts auth at once.
 */
const AUTH_DEFERRED: ReadonlySet<string> = new Set([
  '/',
  '/title/[id]',
  '/search',
  '/brand',
  '/magazine',
  '/magazine/[slug]',
  '/upgrade',
  '/privacy',
  '/terms',
  '/purpose',
  '/tokushoho',
  '/404',
  '/error',
]);

/** True when the page of this route pattern can show itself before auth has started. */
export function isAuthDeferred(pattern: string): boolean {
  return AUTH_DEFERRED.has(pattern);
}

/** Routes we add beyond the spec's table (all open). */
export const EXTRA_ROUTES: readonly string[] = ['/magazine', '/magazine/[slug]', '/tokushoho'];

/** Every route of the spec's table, in its order; used by tests and the e2e route tour. */
export const SPEC_ROUTES = Object.keys(ROUTE_ACCESS).filter((r) => r !== '/404' && r !== '/_error' && !EXTRA_ROUTES.includes(r));

/** The one dynamic segment a route pattern may end with. */
const DYNAMIC_SEGMENTS = ['[id]', '[slug]'];

/** Turns a concrete path ("/play/abc?x=1") into its route pattern ("/play/[id]") and id. */
export function matchRoute(path: string): { pattern: string; id?: string } | null {
  const clean = path.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  if (ROUTE_ACCESS[clean]) return { pattern: clean };
  const segments = clean.split('/');
  const id = segments.pop() as string;
  if (!id) return null;
  for (const dynamic of DYNAMIC_SEGMENTS) {
    const pattern = `${segments.join('/')}/${dynamic}`;
    if (ROUTE_ACCESS[pattern]) return { pattern, id: decodeSegment(id) };
  }
  return null;
}

/**
 * A path segment decoded; a malformed one ("%E0%A4", "%") as it came: it names no title, and Next
 * answers the request with our error page (400), where a throw here was a 500 for the whole request.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function accessOf(pattern: string, id?: string): AccessClass {
  if (pattern === '/play/[id]' && id === OPEN_PLAY_GAME_ID) return 'open';
  return ROUTE_ACCESS[pattern] ?? 'open';
}

/** Tabs of the bottom tab bar, in order (spec section 2). */
export const TABS = [
  { href: '/', label: 'ホーム', icon: 'home' },
  { href: '/search', label: 'さがす', icon: 'search' },
  { href: '/mylist', label: 'マイリスト', icon: 'mylist' },
  { href: '/settings', label: '設定', icon: 'settings' },
] as const;

/** Pages that belong to a tab without sharing its prefix: the magazine is reached from home. */
const TAB_OF_SECTION: Readonly<Record<string, string>> = { '/magazine': '/' };

/** Which tab a path belongs to: the longest tab prefix, so /mylist/history highlights マイリスト. */
export function activeTabOf(path: string): string | null {
  const clean = path.split(/[?#]/)[0];
  for (const [section, tab] of Object.entries(TAB_OF_SECTION)) {
    if (clean === section || clean.startsWith(`${section}/`)) return tab;
  }
  let best: string | null = null;
  for (const tab of TABS) {
    const hit = tab.href === '/' ? clean === '/' : clean === tab.href || clean.startsWith(`${tab.href}/`);
    if (hit && (!best || tab.href.length > best.length)) best = tab.href;
  }
  return best;
}

/** The desktop header's own sections beside the tabs: on their pages the header marks them, not a tab. */
export const HEADER_SECTIONS = [
  { href: '/brand', label: 'ブランド' },
  { href: '/magazine', label: 'マガジン' },
] as const;

/**
 * The one item of the desktop header a path belongs to: its own section (/brand, /magazine), else
 * the tab (activeTabOf: the phone's tab bar has no magazine tab and marks ホーム there instead).
 */
export function activeHeaderItemOf(path: string): string | null {
  const clean = path.split(/[?#]/)[0];
  const section = HEADER_SECTIONS.find((s) => clean === s.href || clean.startsWith(`${s.href}/`));
  return section ? section.href : activeTabOf(clean);
}

/** The global header is hidden on any path containing /play (spec section 2). */
export function isHeaderHidden(path: string): boolean {
  return path.includes('/play');
}

/** Paths where the bottom tab bar would cover the game: hidden on the play page too. */
export function isTabBarHidden(path: string): boolean {
  return path.split(/[?#]/)[0].startsWith('/play/');
}
