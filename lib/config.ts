/**
 * Browser-visible configuration, one place. NEXT_PUBLIC_* values are inlined at build time,
 * so every one has a safe local default that points at the local stack (scripts/stack).
 */
const env = (value: string | undefined, fallback: string) => (value && value.trim() ? value.trim() : fallback);

export const config = {
  siteName: 'Yumecast',
  siteNameJa: 'ユメキャスト',
  siteUrl: env(process.env.NEXT_PUBLIC_SITE_URL, 'http://localhost:3000').replace(/\/$/, ''),
  apiUrl: env(process.env.NEXT_PUBLIC_API_URL, 'http://127.0.0.1:8080').replace(/\/$/, ''),
  /** "log enable" of spec section 2: on for staging/debug builds; marks every page no-index. */
  logEnable: process.env.NEXT_PUBLIC_LOG_ENABLE === 'true',
  firebase: {
    apiKey: env(process.env.NEXT_PUBLIC_FIREBASE_API_KEY, 'demo-api-key'),
    authDomain: env(process.env.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN, 'demo-yumecast.firebaseapp.com'),
    projectId: env(process.env.NEXT_PUBLIC_FIREBASE_PROJECT_ID, 'demo-yumecast'),
    appId: env(process.env.NEXT_PUBLIC_FIREBASE_APP_ID, '1:000000000000:web:0000000000000000'),
    measurementId: process.env.NEXT_PUBLIC_FIREBASE_MEASUREMENT_ID || '',
    /** host:port of the Auth emulator; empty in production builds that use a real project. */
    authEmulatorHost: process.env.NEXT_PUBLIC_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099',
  },
  sentryDsn: process.env.NEXT_PUBLIC_SENTRY_DSN || '',
} as const;

/** Local mode: the emulator stands in for Firebase (mailbox page, local consent form, ...). */
export const isLocalMode = config.firebase.authEmulatorHost !== '';
