/**
 * The browser's Firebase app and Auth instance, created once and only in the browser.
 * In local mode Auth talks to the emulator (lib/config firebase.authEmulatorHost).
 */
import { getApp, getApps, initializeApp, type FirebaseApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, type Auth } from 'firebase/auth';
import { config } from '@/lib/config';

let auth: Auth | null = null;

export function firebaseApp(): FirebaseApp {
  return getApps().length ? getApp() : initializeApp(config.firebase);
}

export function firebaseAuth(): Auth {
  if (auth) return auth;
  auth = getAuth(firebaseApp());
  auth.languageCode = 'ja';
  if (config.firebase.authEmulatorHost) {
    connectAuthEmulator(auth, `http://${config.firebase.authEmulatorHost}`, { disableWarnings: true });
  }
  return auth;
}
