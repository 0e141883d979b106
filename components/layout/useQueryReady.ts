/**
 * Whether a page may read its query: the router is ready and the page is past hydration. Next's
 * `router.isReady` alone is not safe to render with: a static page opened without a query is
 * ready already while it hydrates, but was prerendered not ready, so a page that showed its
 * "no query" answer at once rendered differently from its HTML (React's hydration error #418, and
 * the whole page rendered again on the client). Found on /email/link-callback.
 */
import { useSyncExternalStore } from 'react';
import { useRouter } from 'next/router';

const nothingToWatch = () => () => undefined;

export function useQueryReady(): boolean {
  const { isReady } = useRouter();
  // false on the server and while hydrating, true from the render after it
  const hydrated = useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
  return hydrated && isReady;
}
