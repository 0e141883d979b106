/**
 * The app's link: Next's `<Link>` without prefetching what is in view (issue 12).
 *
 * In production, next/link prefetches every linked page that scrolls into view: its scripts and,
 * through the proxy (middleware), a data request per link. A title page has a dozen links, so a
 * phone spent its first seconds fetching and compiling pages the visitor may never open (~25
 * scripts and ~12 data requests in Lighthouse's trace, most of the page's blocking time after
 * hydration). Pages are still prefetched when the pointer rests on a link, and a tap on a
 * phone fetches the page it goes to. Every link in pages/ and components/ comes from here (lint
 * forbids importing next/link elsewhere).
 */
import NextLink from 'next/link';
import { forwardRef, type ComponentProps } from 'react';

export type LinkProps = ComponentProps<typeof NextLink>;

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ prefetch = false, ...props }, ref) {
  return <NextLink ref={ref} prefetch={prefetch} {...props} />;
});
