/**
 * Keeps the store's user in step with Firebase Auth (spec section 4):
 * - waits for the first auth report AND its token before the app stops loading;
 * - a visitor with no user is signed in anonymously;
 * - on sign-out, or when there is no user, the safe check is reset;
 * - the sign-out rules for provider users without a name (lib/auth/sessionRules);
 * - the token is refreshed 5 minutes before it expires (lib/auth/tokenManager), which also
 *   brings the paymentExpirationTime claim up to date;
 * - a redirect login that left this tab is completed (lib/auth/social), and a link that
 *   needed a recent login is retried.
 */
import { onIdTokenChanged, signInAnonymously, signOut, type Auth, type User as FirebaseUser } from 'firebase/auth';
import Router from 'next/router';
import type { AppDispatch } from '@/store';
import { loggedIn, setLoginErrorCode } from '@/store/slices/user';
import { firebaseAuth } from '@/lib/firebase/client';
import { resetSafeCheck, resetSafeCheckFromBefore } from '@/lib/storage/safeCheck';
import { setAnalyticsContext } from '@/lib/analytics';
import { pushToast } from '@/store/slices/toastThunks';
import { toUser } from './toUser';
import { errorCodeOf } from './errors';
import { sessionRule } from './sessionRules';
import { isAuthFlowRunning, onAuthFlowsIdle, runAuthFlow } from './flow';
import { TokenRefresher } from './tokenManager';
import { lookupSignInMethods, providerMethods } from './signInMethods';
import { completeRedirectLogin, type RedirectCompletion } from './social';
import { PASSWORD_AGAIN, retryPendingLink } from './link';
import { authMessage } from './messages';

let refresher: TokenRefresher | null = null;

/**
 * Refreshes the token now, e.g. after the server changed the account's claims (a purchase):
 * the store then carries the new paymentExpirationTime.
 */
export function refreshUserToken(): Promise<void> {
  if (refresher) return refresher.refreshNow();
  const user = firebaseAuth().currentUser;
  return user ? user.getIdToken(true).then(() => undefined) : Promise.resolve();
}

export function startAuthListener(dispatch: AppDispatch): () => void {
  const auth = firebaseAuth();
  let generation = 0;
  let anonymousSignIn: Promise<unknown> | null = null;
  const tokens = new TokenRefresher({
    refresh: async () => {
      const user = auth.currentUser;
      if (!user) throw new Error('currentUser does not exist');
      await user.getIdToken(true);
      return Date.parse((await user.getIdTokenResult()).expirationTime);
    },
    onError: (e) => console.warn('token refresh failed; retrying later', errorCodeOf(e)),
  });
  refresher = tokens;

  const signInVisitor = () => {
    if (anonymousSignIn) return;
    anonymousSignIn = signInAnonymously(auth)
      .catch((e) => dispatch(setLoginErrorCode(errorCodeOf(e))))
      .finally(() => {
        anonymousSignIn = null;
      });
  };

  const report = async (fb: FirebaseUser, gen: number) => {
    const rule = sessionRule(fb);
    if (rule.action === 'signOut') {
      if (rule.code) dispatch(setLoginErrorCode(rule.code));
      await signOut(auth);
      return;
    }
    const token = await fb.getIdTokenResult();
    if (gen !== generation) return;
    const user = toUser(fb, token.claims as Record<string, unknown>, providerMethods(fb));
    setAnalyticsContext({ uid: user.uid, paymentExpirationTime: user.paymentExpirationTime });
    dispatch(loggedIn(user));
    tokens.track(Date.parse(token.expirationTime));
    if (!fb.isAnonymous && fb.email) {
      const methods = await lookupSignInMethods(auth, fb.email);
      if (gen === generation && methods.length > 0) dispatch(loggedIn({ ...user, signInMethods: methods }));
    }
  };

  // Whether a user was reported on this page: no user after one is a sign-out.
  let hadUser = false;
  const onUser = (fb: FirebaseUser | null) => {
    generation += 1;
    const gen = generation;
    if (!fb) {
      tokens.stop();
      if (hadUser) resetSafeCheck();
      else resetSafeCheckFromBefore();
      hadUser = false;
      setAnalyticsContext({});
      dispatch(loggedIn(null));
      signInVisitor();
      return;
    }
    hadUser = true;
    report(fb, gen).catch((e) => {
      if (gen !== generation) return;
      dispatch(setLoginErrorCode(errorCodeOf(e)));
      dispatch(loggedIn(null));
    });
  };

  // A redirect login coming back is a flow too: its user is reported once it is complete.
  const completion = runAuthFlow(() => completeRedirectLogin(auth));
  let held = false;
  const stopIdle = onAuthFlowsIdle(() => {
    if (!held) return;
    held = false;
    onUser(auth.currentUser);
  });
  const unsubscribe = onIdTokenChanged(auth, (fb) => {
    if (isAuthFlowRunning()) {
      held = true;
      return;
    }
    onUser(fb);
  });

  const wake = () => {
    if (document.visibilityState === 'visible') tokens.wake();
  };
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('online', wake);

  void completion
    .then((done) => handleRedirectCompletion(done, dispatch, auth))
    .catch((e) => console.error('redirect login failed', errorCodeOf(e)));

  return () => {
    unsubscribe();
    stopIdle();
    tokens.stop();
    if (refresher === tokens) refresher = null;
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('online', wake);
  };
}

/** Login modal steps 5–6 after the redirect came back, and the retry of a pending link. */
export async function handleRedirectCompletion(done: RedirectCompletion, dispatch: AppDispatch, auth: Auth = firebaseAuth()): Promise<void> {
  if (done.kind === 'none') return;
  if (done.kind === 'failure') {
    // Spec section 4 step 6: logged to the console, no message; the code is kept as loginErrorCode.
    console.error('social login failed', done.code);
    dispatch(setLoginErrorCode(done.code));
    return;
  }
  dispatch(setLoginErrorCode(null));
  if (done.retry) {
    const retried = await retryPendingLink(done.retry, auth);
    if (retried.result) dispatch(pushToast('success', { message: 'メールアドレスを登録しました。' }));
    else dispatch(pushToast(retried.code === PASSWORD_AGAIN ? 'info' : 'error', { message: authMessage(retried.code) }));
  } else if (done.purpose === 'link') {
    dispatch(pushToast('success', { message: 'X（Twitter）と連携しました。' }));
  } else if (done.purpose === 'login') {
    dispatch(pushToast('success', { message: 'ログインしました' }));
  }
  if (done.followUp) {
    const here = `${window.location.pathname}${window.location.search}`;
    if (done.followUp !== here) await Router.replace(done.followUp).catch(() => undefined);
  }
}
