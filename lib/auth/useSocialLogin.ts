import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '@/store/hooks';
import { setLoginErrorCode } from '@/store/slices/user';
import { errorCodeOf } from './errors';
import { logoutBeforeSocialLogin, startRedirect } from './social';

/** Spinner reset after the modal is gone (spec section 9). */
export const LOGIN_SPINNER_RESET_MS = 500;

/**
 * The login modal's social button (spec section 4, login modal flow):
 * 1. a spinner replaces the button (and the caller hides the e-mail link);
 * 2. any signed-in user is logged out (an anonymous visitor is kept, to be linked);
 * 3. the redirect login runs: X in production, the local consent form in local mode;
 * 4–5. on return the e-mail is updated and the follow-up (`followUp`, a same-origin path) runs
 *    (lib/auth/social completeRedirectLogin, lib/auth/listener);
 * 6. on failure the error is logged to the console and the modal closes, with no message;
 * 7. the spinner resets 500 ms after the modal is gone.
 */
export function useSocialLogin(onClose: () => void, followUp?: string | null) {
  const dispatch = useAppDispatch();
  const [running, setRunning] = useState(false);
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    // Coming back with the browser's back button restores the page from the back-forward
    // cache with the spinner still on: reset it.
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      busy.current = false;
      setRunning(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pageshow', onShow);
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const start = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setRunning(true);
    try {
      await logoutBeforeSocialLogin();
      await startRedirect('login', { followUp });
    } catch (e) {
      console.error('social login failed', e);
      dispatch(setLoginErrorCode(errorCodeOf(e)));
      onClose();
      timer.current = setTimeout(() => {
        busy.current = false;
        setRunning(false);
      }, LOGIN_SPINNER_RESET_MS);
    }
  }, [dispatch, followUp, onClose]);

  return { running, start };
}
