/**
 * Next.js configuration of the web app: build folder, image optimiser (spec section 9), the
 * security headers every page answers with, and the Sentry wrapper.
 */
import type { NextConfig } from 'next';
import { withSentryConfig } from '@sentry/nextjs/config';

/**
 * Headers on every response of the web (issue 10): no page may be framed by another site
 * (clickjacking of the sign-in and purchase forms), no MIME sniffing, no full URL sent to other
 * origins. The purchase page frames the payment processor's card form; that is the processor's
 * origin allowing us, not the other way round, so `frame-ancestors 'none'` does not stand in its way.
 */
const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
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
