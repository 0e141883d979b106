/**
 * Runs before every page (Next.js 16 "proxy", formerly middleware): the Content-Security-Policy
 * (issue 10, docs/security.md).
 *
 * Every response gets the static policy: scripts from our origin, the build's own inline
 * bootstrap and our boot gate (lib/security/bootGate.ts, whose hash contentSecurityPolicy adds
 * itself) by hash, no inline script else. That is all a prerendered page can carry, since it was
 * built before any request. Every page that may be rendered for this request also gets a fresh
 * nonce in the x-nonce request header; pages/_document.tsx puts it on the page's scripts and
 * styles and replaces the policy with the nonce policy on that same response. Prerendered pages
 * that revalidate in the background (PRERENDERED_ROUTES) get none, and a nonce sent by the
 * client is dropped. Permissions-Policy and the other fixed headers are in next.config.ts.
 *
 * The static policy depends only on this server's environment and build, so it is written once,
 * on the first request (when the build folder is surely there), not per request.
 *
 * The proxy does not run at all for the prerendered pages (the matcher leaves them out):
 * next.config.ts gives them the static policy, so Next serves them from its cache with no
 * per-request code of ours (issue 12: `/` and the title pages went from ~800 to ~1,400 requests
 * a second). lib/security/csp.test.ts checks the matcher against PRERENDERED_ROUTES.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { buildBootstrapHashes } from '@/lib/security/bootstrapHashes';
import { contentSecurityPolicy, isPrerenderedPath, newNonce, NONCE_HEADER, siteCspSources } from '@/lib/security/csp';

const dev = process.env.NODE_ENV === 'development';
let staticPolicy: string | null = null;

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.delete(NONCE_HEADER);
  // next dev renders every page per request and serves nothing stale: a nonce for all of them.
  if (dev || !isPrerenderedPath(request.nextUrl.pathname)) headers.set(NONCE_HEADER, newNonce());
  const response = NextResponse.next({ request: { headers } });
  staticPolicy ??= contentSecurityPolicy({ sources: siteCspSources(), scriptHashes: buildBootstrapHashes(), dev });
  response.headers.set('Content-Security-Policy', staticPolicy);
  return response;
}

export const config = {
  // Pages and their data; not the build's files, the image optimiser or public/ assets, nor the
  // prerendered pages (`/`, `/title/<id>`, `/magazine/<slug>`: their policy is next.config.ts's).
  matcher: ['/((?!_next/static|_next/image|favicon\\.ico|favicon\\.svg|images/|games/|$|title/[^/]+/?$|magazine/[^/]+/?$).*)'],
};
