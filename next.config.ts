/**
 * Next.js configuration of the web app: build folder, image optimiser (spec section 9), the
 * security headers every response answers with, and the Sentry wrapper.
 */
import type { NextConfig } from 'next';
import { withSentryConfig } from '@sentry/nextjs/config';
import { permissionsPolicy } from './lib/security/permissions';

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

const nextConfig: NextConfig = {
  // The test stack builds into its own folder (scripts/stack/config.ts).
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  poweredByHeader: false,
  compiler: { styledComponents: true },
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS }];
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
