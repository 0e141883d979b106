/**
 * The browser's Firebase app and Auth instance, created once and only in the browser.
 * In local mode Auth talks to the emulator (lib/config firebase.authEmulatorHost).
 *
 * Auth is made with `initializeAuth` and the persistence `getAuth` would pick, but without the
 * popup/redirect resolver: that resolver loads Google's `apis.google.com/js/api.js` on every page
 * at start (a request to another origin, failing offline with a console error; issue 12). The
 * redirect sign-in passes the resolver where it needs it (lib/auth/social.ts). This module is
 * loaded after the page's first paint (lib/auth/loader.ts), never in a public page's first load.
 */
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserSessionPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  type Auth,
} from 'firebase/auth';
import { config } from '@/lib/config';

let auth: Auth | null = null;

export function firebaseApp(): FirebaseApp {
  return getApps().length ? getApp() : initializeApp(config.firebase);
}

export function firebaseAuth(): Auth {
  if (auth) return auth;
  auth = initializeAuth(firebaseApp(), {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
  });
  auth.languageCode = 'ja';
  if (config.firebase.authEmulatorHost) {
    connectAuthEmulator(auth, `http://${config.firebase.authEmulatorHost}`, { disableWarnings: true });
  }
  return auth;
}
