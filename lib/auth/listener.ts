/**
 * Keeps the store's user in step with Firebase Auth (spec section 4):
 * - waits for the first auth report AND its token before the app stops loading;
 * - a visitor with no user is signed in anonymously;
 * - on sign-out, or when there is no user, the safe check is reset.
 */
import { onIdTokenChanged, signInAnonymously, type User as FirebaseUser } from 'firebase/auth';
import type { AppDispatch } from '@/store';
import { loggedIn, setLoginErrorCode } from '@/store/slices/user';
import { firebaseAuth } from '@/lib/firebase/client';
import { resetSafeCheck } from '@/lib/storage/safeCheck';
import { setAnalyticsContext } from '@/lib/analytics';
import { toUser } from './toUser';
import { errorCodeOf } from './errors';

async function reportUser(dispatch: AppDispatch, fb: FirebaseUser): Promise<void> {
  const token = await fb.getIdTokenResult();
  const user = toUser(fb, token.claims as Record<string, unknown>, providerMethods(fb));
  setAnalyticsContext({ uid: user.uid, paymentExpirationTime: user.paymentExpirationTime });
  dispatch(loggedIn(user));
}

/** Sign-in methods known from the user's own providers ("password", "emailLink", "twitter.com"). */
function providerMethods(fb: FirebaseUser): string[] {
  return fb.providerData.map((p) => (p.providerId === 'password' ? 'password' : p.providerId));
}

export function startAuthListener(dispatch: AppDispatch): () => void {
  const auth = firebaseAuth();
  return onIdTokenChanged(auth, (fb) => {
    if (!fb) {
      resetSafeCheck();
      setAnalyticsContext({});
      dispatch(loggedIn(null));
      signInAnonymously(auth).catch((e) => dispatch(setLoginErrorCode(errorCodeOf(e))));
      return;
    }
    reportUser(dispatch, fb).catch((e) => {
      dispatch(setLoginErrorCode(errorCodeOf(e)));
      dispatch(loggedIn(null));
    });
  });
}
