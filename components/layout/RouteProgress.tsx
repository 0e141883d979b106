/**
 * A thin bar along the top of the window while a page change waits on the network. Next's router
 * keeps the old page, its address and the tab's highlight until the new page's data and code
 * have arrived: on a slow connection a tab tap seemed to do nothing for seconds (docs/known-gaps.md,
 * the review of 2026-11-28). The bar shows after ROUTE_PROGRESS_DELAY_MS, so a quick change (a
 * cached page, a shallow query update) never flashes it, and leaves when the change completes or
 * fails. It is a progressbar for assistive technology, named in Japanese.
 */
import { useEffect, useState } from 'react';
import Router from 'next/router';
import styled, { keyframes } from 'styled-components';

export const ROUTE_PROGRESS_DELAY_MS = 200;

const grow = keyframes`
  from { transform: scaleX(0.05); }
  to { transform: scaleX(0.9); }
`;

const Bar = styled.div`
  position: fixed;
  top: 0;
  left: 0;
  right: 0;
  height: 3px;
  z-index: 1000;
  pointer-events: none;
  background: ${({ theme }) => theme.primary};
  transform-origin: left;
  /* most of the way in a few seconds, slower and slower, never quite full until the page is there */
  animation: ${grow} 8s cubic-bezier(0.1, 0.8, 0.2, 1) forwards;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
    transform: scaleX(0.5);
  }
`;

export function RouteProgress() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let timer = 0;
    const start = (_url: string, { shallow }: { shallow: boolean }) => {
      window.clearTimeout(timer);
      if (shallow) return;
      timer = window.setTimeout(() => setShown(true), ROUTE_PROGRESS_DELAY_MS);
    };
    const done = () => {
      window.clearTimeout(timer);
      setShown(false);
    };
    Router.events.on('routeChangeStart', start);
    Router.events.on('routeChangeComplete', done);
    Router.events.on('routeChangeError', done);
    return () => {
      window.clearTimeout(timer);
      Router.events.off('routeChangeStart', start);
      Router.events.off('routeChangeComplete', done);
      Router.events.off('routeChangeError', done);
    };
  }, []);
  return shown ? <Bar role="progressbar" aria-label="ページを読み込んでいます" data-testid="route-progress" /> : null;
}
