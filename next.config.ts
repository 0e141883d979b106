/**
 * Next.js configuration of the web app: build folder, image optimiser (spec section 9), the
 * security headers every response answers with, and the Sentry wrapper.
 */
import type { NextConfig } from 'next';
import { withSentryConfig } from '@sentry/nextjs/config';
import { permissionsPolicy } from './lib/security/permissions';
import { contentSecurityPolicy, cspSources, prerenderedHeaderSources } from './lib/security/csp';

/**
 * Headers on every response of the web (issue 10, docs/security.md): no page may be framed by
 * another site (clickjacking of the sign-in and purchase forms), no MIME sniffing, no full URL
 * sent to other origins, no powerful feature but the few the play page uses. The purchase page
 * frames the payment processor's card form; that is the processor's origin allowing us, not the
 * other way round, so `frame-ancestors 'none'` does not stand in its way. The CSP here is the
 * floor for files; pages get the full policy from proxy.ts (and their nonce from _document).
 */
const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: permissionsPolicy() },
];

/**
 * The prerendered, revalidated pages (`/`, `/title/[id]`, `/magazine/[slug]`) get the static
 * policy here, written into the build, so Next serves them from its cache without running
 * proxy.ts, whose per-request work halved their requests per second (issue 12,
 * docs/web-performance.md). Its sources come from the build's environment, which the stack keeps
 * the same as the web's (scripts/stack/build.ts fingerprints CSP_RUNTIME_ENV). A Turbopack build
 * writes an inline bootstrap script into those pages that this policy does not allow: production
 * builds are webpack's (`next build --webpack`), and a Turbopack production build stops here.
 * Under `next dev` (Turbopack) these routes keep only the floor above. The one inline script of
 * ours, the boot gate (lib/security/bootGate.ts), is allowed by its hash, which
 * contentSecurityPolicy() adds to every policy without a nonce.
 */
function prerenderedPolicyHeaders() {
  if (process.env.NODE_ENV === 'development') return [];
  if (process.env.TURBOPACK) throw new Error('production builds use webpack: next build --webpack (docs/web-performance.md "The production bundler")');
  const value = contentSecurityPolicy({ sources: cspSources() });
  return prerenderedHeaderSources().map((source) => ({ source, headers: [{ key: 'Content-Security-Policy', value }] }));
}

const nextConfig: NextConfig = {
  // The test stack builds into its own folder (scripts/stack/config.ts).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  compiler: { styledComponents: true },
  // Source maps of the browser's scripts only in a build made for `bench/page-weight.ts --modules`
  // (by hand, never by the stack: the maps would be served publicly).
  productionBrowserSourceMaps: process.env.NEXT_BROWSER_SOURCE_MAPS === '1',
  async headers() {
    // Later rules win for the same header: the prerendered pages' policy replaces the floor.
    return [{ source: '/:path*', headers: SECURITY_HEADERS }, ...prerenderedPolicyHeaders()];
  },
  // Images of spec section 9: served through the image optimiser with these widths, WebP, q75.
  images: {
    deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
    imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
    formats: ['image/webp'],
    qualities: [75],
    minimumCacheTTL: 60,
  },
};

// Sentry wraps the build; with no DSN the SDK is disabled and sends nothing (lib/sentry).
export default withSentryConfig(nextConfig, {
  silent: true,
  telemetry: false,
  sourcemaps: { disable: !process.env.SENTRY_AUTH_TOKEN },
  org: process.env.SENTRY_ORG,
  project: process.env.SENTRY_PROJECT,
  authToken: process.env.SENTRY_AUTH_TOKEN,
});
