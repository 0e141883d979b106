import '@fontsource/noto-sans-jp/400.css';
import '@fontsource/noto-sans-jp/700.css';
import { useEffect, useState } from 'react';
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
import { ModalLayer } from '@/components/modal/ModalLayer';
import { ToastStack } from '@/components/toast/ToastStack';
import { startAuthListener } from '@/lib/auth/listener';
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

  useEffect(() => startAuthListener(dispatch), [dispatch]);

  // The auth state on <html data-auth>: lets CSS, support staff and tests see what the app decided.
  useEffect(() => {
    document.documentElement.dataset.auth = authState;
  }, [authState]);

  useEffect(() => {
    trackPageView(Router.asPath);
    const onDone = (url: string) => trackPageView(url);
    Router.events.on('routeChangeComplete', onDone);
    return () => Router.events.off('routeChangeComplete', onDone);
  }, []);

  return (
    <GuardContext.Provider value={decision}>
      <AppShell path={router.asPath}>
        <Component {...pageProps} />
      </AppShell>
      <ModalLayer />
      <ToastStack />
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
