import type { AuthState } from '@/lib/types/user';
import { decideAccess, shouldCancelRouteChange, ROUTING_EXCEPTION, RoutingException } from './guard';
import { accessOf, activeHeaderItemOf, activeTabOf, EXTRA_ROUTES, isHeaderHidden, matchRoute, OPEN_PLAY_GAME_ID, ROUTE_ACCESS, SPEC_ROUTES } from './rules';

const STATES: AuthState[] = ['undefined', 'none', 'anonymous', 'verified'];

/** A concrete path for a route pattern. */
const concrete = (pattern: string) => pattern.replace('[id]', 'some-id');

/** The spec's table (section 2), written out independently of ROUTE_ACCESS. */
const SPEC_TABLE: Record<string, 'open' | 'unknownOnly' | 'verifiedOnly'> = {
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
};

function expected(pattern: string, state: AuthState, width: number) {
  const access = SPEC_TABLE[pattern];
  if (access === 'open') return 'allow';
  if (state === 'undefined') return 'wait';
  if (access === 'unknownOnly') return state === 'verified' ? 'redirect' : 'allow';
  if (state === 'verified') return 'allow';
  if (pattern === '/settings') return width < 1024 ? 'allow' : 'settingsWideModal';
  return 'redirect';
}

describe('route rules', () => {
  it('cover exactly the routes of the spec table', () => {
    expect(SPEC_ROUTES.sort()).toEqual(Object.keys(SPEC_TABLE).sort());
    for (const [pattern, access] of Object.entries(SPEC_TABLE)) expect(ROUTE_ACCESS[pattern]).toBe(access);
  });

  it('add only open routes of our own beyond the table: the magazine and the 特定商取引法 page', () => {
    expect([...EXTRA_ROUTES].sort()).toEqual(['/magazine', '/magazine/[slug]', '/tokushoho']);
    for (const r of EXTRA_ROUTES) expect(ROUTE_ACCESS[r]).toBe('open');
    const all = Object.keys(ROUTE_ACCESS).filter((r) => r !== '/404' && r !== '/_error');
    expect(all.sort()).toEqual([...SPEC_ROUTES, ...EXTRA_ROUTES].sort());
  });

  it('match the magazine routes, a slug as the id', () => {
    expect(matchRoute('/magazine')).toEqual({ pattern: '/magazine' });
    expect(matchRoute('/magazine/hajimari-no-eki-review?x=1')).toEqual({ pattern: '/magazine/[slug]', id: 'hajimari-no-eki-review' });
    expect(matchRoute('/magazine/a/b')).toBeNull();
  });

  it.each(STATES)('let everyone read the magazine as %s', (state) => {
    for (const path of ['/magazine', '/magazine?cursor=abc', '/magazine/some-article']) {
      expect(decideAccess({ path, authState: state, viewportWidth: 375 }).kind).toBe('allow');
      expect(shouldCancelRouteChange({ path, authState: state, viewportWidth: 1280 })).toBe(false);
    }
  });

  it('match concrete paths to their pattern', () => {
    expect(matchRoute('/play/abc?x=1')).toEqual({ pattern: '/play/[id]', id: 'abc' });
    // a malformed escape is no id of ours: kept as it came (Next answers 400 with our error page), never a throw
    expect(matchRoute('/title/%E0%A4')).toEqual({ pattern: '/title/[id]', id: '%E0%A4' });
    expect(matchRoute('/play/%')).toEqual({ pattern: '/play/[id]', id: '%' });
    expect(matchRoute('/mylist/screenshot/42')).toEqual({ pattern: '/mylist/screenshot/[id]', id: '42' });
    expect(matchRoute('/mylist/screenshot')).toEqual({ pattern: '/mylist/screenshot' });
    expect(matchRoute('/settings/')).toEqual({ pattern: '/settings' });
    expect(matchRoute('/nope/at/all')).toBeNull();
  });

  it('open exactly one play id to everyone', () => {
    expect(accessOf('/play/[id]', OPEN_PLAY_GAME_ID)).toBe('open');
    expect(accessOf('/play/[id]', 'another-title')).toBe('verifiedOnly');
  });
});

describe('decideAccess: every route against every auth state', () => {
  for (const pattern of Object.keys(SPEC_TABLE)) {
    for (const state of STATES) {
      for (const width of [375, 1280]) {
        const want = expected(pattern, state, width);
        it(`${pattern} as ${state} at ${width}px → ${want}`, () => {
          const d = decideAccess({ path: concrete(pattern), authState: state, viewportWidth: width });
          expect(d.kind).toBe(want);
          if (d.kind === 'redirect') expect(d.to).toBe('/');
        });
      }
    }
  }

  it.each(STATES)('the open play id is allowed as %s', (state) => {
    expect(decideAccess({ path: `/play/${OPEN_PLAY_GAME_ID}`, authState: state, viewportWidth: 1280 }).kind).toBe('allow');
  });

  it('settings waits for the viewport width on the server', () => {
    expect(decideAccess({ path: '/settings', authState: 'anonymous' }).kind).toBe('wait');
  });

  it('uses 1024 px as the wide-screen threshold', () => {
    expect(decideAccess({ path: '/settings', authState: 'none', viewportWidth: 1023 }).kind).toBe('allow');
    expect(decideAccess({ path: '/settings', authState: 'none', viewportWidth: 1024 }).kind).toBe('settingsWideModal');
  });
});

describe('route change cancellation', () => {
  it('cancels a change to a verified-only page for visitors', () => {
    expect(shouldCancelRouteChange({ path: '/mylist', authState: 'anonymous', viewportWidth: 1280 })).toBe(true);
    expect(shouldCancelRouteChange({ path: '/play/other', authState: 'none', viewportWidth: 375 })).toBe(true);
  });
  it('lets verified users, open pages and the open play id through', () => {
    expect(shouldCancelRouteChange({ path: '/mylist', authState: 'verified', viewportWidth: 1280 })).toBe(false);
    expect(shouldCancelRouteChange({ path: '/search?q=a', authState: 'anonymous', viewportWidth: 1280 })).toBe(false);
    expect(shouldCancelRouteChange({ path: `/play/${OPEN_PLAY_GAME_ID}`, authState: 'anonymous', viewportWidth: 1280 })).toBe(false);
  });
  it('does not cancel /settings on a narrow screen, nor while auth is loading', () => {
    expect(shouldCancelRouteChange({ path: '/settings', authState: 'anonymous', viewportWidth: 375 })).toBe(false);
    expect(shouldCancelRouteChange({ path: '/mylist', authState: 'undefined', viewportWidth: 375 })).toBe(false);
  });
  it('raises the spec\'s "routing exception"', () => {
    const e = new RoutingException('/mylist');
    expect(e.message).toBe(ROUTING_EXCEPTION);
    expect(ROUTING_EXCEPTION).toBe('routing exception');
  });
});

describe('header and tabs', () => {
  it('hides the header on any path containing /play', () => {
    expect(isHeaderHidden('/play/x')).toBe(true);
    expect(isHeaderHidden('/foo/play')).toBe(true);
    expect(isHeaderHidden('/title/x')).toBe(false);
  });
  it('highlights the tab of the current path', () => {
    expect(activeTabOf('/')).toBe('/');
    expect(activeTabOf('/search?q=x')).toBe('/search');
    expect(activeTabOf('/mylist/history')).toBe('/mylist');
    expect(activeTabOf('/settings/account')).toBe('/settings');
    // the desktop header marks its own sections, and only them, on their pages
    expect(activeHeaderItemOf('/magazine')).toBe('/magazine');
    expect(activeHeaderItemOf('/magazine/soundtrack-feature?x=1')).toBe('/magazine');
    expect(activeHeaderItemOf('/brand#anchor')).toBe('/brand');
    expect(activeHeaderItemOf('/')).toBe('/');
    expect(activeHeaderItemOf('/mylist/history')).toBe('/mylist');
    expect(activeHeaderItemOf('/brandnew')).toBe(null);
    expect(activeTabOf('/brand')).toBeNull();
    expect(activeTabOf('/magazine')).toBe('/');
    expect(activeTabOf('/magazine/some-article#top')).toBe('/');
    expect(activeTabOf('/magazines')).toBeNull();
  });
});
