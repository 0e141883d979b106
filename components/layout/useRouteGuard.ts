import { useEffect, useState } from 'react';
import Router, { useRouter } from 'next/router';
import { decideAccess, RoutingException, shouldCancelRouteChange, type GuardDecision } from '@/lib/routes/guard';
import { useAppDispatch, useAppSelector, useAppStore } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';
import { displayModal, hideModal } from '@/store/slices/modal';
import { authStateOf } from '@/lib/types/user';

function viewportWidth(): number | undefined {
  return typeof window === 'undefined' ? undefined : window.innerWidth;
}

/**
 * Applies the guard of lib/routes/guard to the live router and store, and returns the
 * decision for the current page so AuthGate can show the loading gate meanwhile.
 */
export function useRouteGuard(): GuardDecision {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const authState = useAppSelector(selectAuthState);
  const [width, setWidth] = useState<number | undefined>(undefined);

  useEffect(() => {
    const onResize = () => setWidth(viewportWidth());
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const decision = decideAccess({ path: router.asPath, authState, viewportWidth: width });

  useEffect(() => {
    if (decision.kind === 'redirect') void router.replace(decision.to);
    if (decision.kind === 'settingsWideModal') dispatch(displayModal({ node: 'settingsWide' }));
    // the notice belongs to /settings: a page left behind (a logout goes home) takes it along
    else if (store.getState().modal.node === 'settingsWide') dispatch(hideModal());
  }, [decision.kind, decision.kind === 'redirect' ? decision.to : '', router, dispatch]); // eslint-disable-line react-hooks/exhaustive-deps

  // Cancels a client-side change into a verified-only page (spec section 4): modal + route-change error.
  useEffect(() => {
    const onStart = (url: string, opts: { shallow: boolean }) => {
      const state = authStateOf(store.getState().user.user);
      if (!shouldCancelRouteChange({ path: url, authState: state, viewportWidth: viewportWidth() })) return;
      dispatch(displayModal({ node: 'routeBlocked', props: { href: url } }));
      const err = new RoutingException(url);
      Router.events.emit('routeChangeError', err, url, opts);
      throw err;
    };
    Router.events.on('routeChangeStart', onStart);
    return () => Router.events.off('routeChangeStart', onStart);
  }, [dispatch, store]);

  return decision;
}
