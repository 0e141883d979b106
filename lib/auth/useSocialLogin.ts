import { useCallback, useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/router';
import { isLocalMode } from '@/lib/config';

/** Spinner reset after the modal is gone (spec section 9). */
export const LOGIN_SPINNER_RESET_MS = 500;

/**
 * The login modal's social button (spec section 4, login modal flow). Step 1 shows the
 * spinner; the sign-in itself runs on the /signin page, which in local mode is the local
 * consent form standing in for X and in production starts the redirect login.
 */
export function useSocialLogin(onClose: () => void) {
  const router = useRouter();
  const [running, setRunning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const start = useCallback(async () => {
    setRunning(true);
    try {
      await router.push({ pathname: '/signin', query: { provider: 'twitter', local: isLocalMode ? '1' : undefined } });
    } catch (e) {
      console.error('social login failed', e);
    } finally {
      onClose();
      timer.current = setTimeout(() => setRunning(false), LOGIN_SPINNER_RESET_MS);
    }
  }, [router, onClose]);

  return { running, start };
}
