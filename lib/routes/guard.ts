/**
 * The route guard, written once (spec section 4 "Navigation rules"). Pure functions here;
 * components/layout/RouteGuard.tsx applies them to the router and the store.
 */
import type { AuthState } from '@/lib/types/user';
import { WIDE_SCREEN_MIN } from '@/styles/breakpoints';
import { accessOf, matchRoute } from './rules';

/** Message of the route-change error of spec section 8. */
export const ROUTING_EXCEPTION = 'routing exception';

export type GuardDecision =
  | { kind: 'allow' }
  /** The auth state is still loading; show the loading gate, decide later. */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string }
  /** /settings on a wide screen without a verified user: a modal whose action reloads. */
  | { kind: 'settingsWideModal' };

export interface GuardInput {
  /** Concrete path, e.g. "/play/abc". */
  path: string;
  authState: AuthState;
  /** Viewport width in px; undefined on the server. */
  viewportWidth?: number;
}

export function decideAccess({ path, authState, viewportWidth }: GuardInput): GuardDecision {
  const match = matchRoute(path);
  if (!match) return { kind: 'allow' }; // unknown paths fall through to the 404 page
  const access = accessOf(match.pattern, match.id);
  if (access === 'open') return { kind: 'allow' };
  if (authState === 'undefined') return { kind: 'wait' };
  const verified = authState === 'verified';

  if (access === 'unknownOnly') return verified ? { kind: 'redirect', to: '/' } : { kind: 'allow' };

  // verifiedOnly
  if (verified) return { kind: 'allow' };
  if (match.pattern === '/settings') {
    if (viewportWidth === undefined) return { kind: 'wait' };
    return viewportWidth < WIDE_SCREEN_MIN ? { kind: 'allow' } : { kind: 'settingsWideModal' };
  }
  return { kind: 'redirect', to: '/' };
}

/**
 * A client-side route change (link click) into a page the user may not open is cancelled
 * instead of redirected: the caller shows a modal and emits the route-change error.
 * Returns true when the change must be cancelled.
 */
export function shouldCancelRouteChange(input: GuardInput): boolean {
  const match = matchRoute(input.path);
  if (!match || input.authState === 'undefined') return false;
  if (accessOf(match.pattern, match.id) !== 'verifiedOnly') return false;
  const d = decideAccess(input);
  return d.kind === 'redirect';
}

/** The error thrown to cancel a Next.js route change; Sentry ignores it (lib/sentry). */
export class RoutingException extends Error {
  readonly cancelled = true;
  constructor(readonly url: string) {
    super(ROUTING_EXCEPTION);
    this.name = 'RoutingException';
  }
}
