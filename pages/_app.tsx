/**
 * The app around every page: the Redux store, the theme, global styles, the auth start (after the
 * first paint on public pages, lib/auth/loader.ts), the route guard, page views, scroll
 * restoration, the bar shown while a page change waits (components/layout/RouteProgress.tsx),
 * and the modal and toast layers (loaded after the first paint, components/layout/DeferredLayers.tsx). No web font is imported here: the web uses the
 * platforms' Japanese fonts (styles/GlobalStyle.ts, issue 12).
 */
import { useEffect, useMemo, useState } from 'react';
import type { AppProps } from 'next/app';
import Head from 'next/head';
import Router, { useRouter } from 'next/router';
import { Provider } from 'react-redux';
import { makeStore, type AppStore } from '@/store';
import { ThemeSwitchProvider } from '@/components/theme/ThemeSwitch';
import { GlobalStyle } from '@/styles/GlobalStyle';
import { AppShell } from '@/components/layout/AppShell';
import { GuardContext } from '@/components/layout/GuardContext';
import { useRouteGuard } from '@/components/layout/useRouteGuard';
import { useScrollRestoration } from '@/components/layout/useScrollRestoration';
import { DeferredLayers } from '@/components/layout/DeferredLayers';
import { RouteProgress } from '@/components/layout/RouteProgress';
import { needsAuthAtOnce, scheduleAuthStart } from '@/lib/auth/loader';
import { writeAuthHint } from '@/lib/auth/hint';
import { trackPageView } from '@/lib/analytics';
import { useAppDispatch, useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';

/** Everything that needs the store: auth, guard, page views, scroll, and the app's layers. */
function Shell({ Component, pageProps }: Pick<AppProps, 'Component' | 'pageProps'>) {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const decision = useRouteGuard();
  useScrollRestoration();

  const authState = useAppSelector(selectAuthState);

  // Firebase Auth loads after the first paint on public pages, at once elsewhere (lib/auth/loader).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- decided once, by the page the app opened on
  useEffect(() => scheduleAuthStart(dispatch, needsAuthAtOnce(router.asPath)), [dispatch]);

  // The auth state on <html data-auth>: lets CSS, support staff and tests see what the app decided.
  useEffect(() => {
    document.documentElement.dataset.auth = authState;
    writeAuthHint(authState);
  }, [authState]);

  useEffect(() => {
    trackPageView(Router.asPath);
    const onDone = (url: string) => trackPageView(url);
    Router.events.on('routeChangeComplete', onDone);
    return () => Router.events.off('routeChangeComplete', onDone);
  }, []);

  // The page as one element, made again only when the page or its props change: the shell
  // re-renders when the auth state, the guard's decision or the viewport width settle after
  // hydration, and an unchanged element lets React skip the whole page then (issue 12: each
  // of those was a full re-render of the page, a long task on a phone). No <Suspense> around
  // it: the server would stream the page behind an inline script, which the prebuilt pages'
  // Content-Security-Policy (hashes only) blocks, leaving the page twice in the document.
  const page = useMemo(() => <Component {...pageProps} />, [Component, pageProps]);

  return (
    <GuardContext.Provider value={decision}>
      <AppShell path={router.asPath}>{page}</AppShell>
      <RouteProgress />
      <DeferredLayers />
    </GuardContext.Provider>
  );
}

export default function App({ Component, pageProps }: AppProps) {
  const [store] = useState<AppStore>(makeStore);
  return (
    <Provider store={store}>
      <ThemeSwitchProvider>
        <Head>
          <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        </Head>
        <GlobalStyle />
        <Shell Component={Component} pageProps={pageProps} />
      </ThemeSwitchProvider>
    </Provider>
  );
}
