/**
 * The one analytics module. Events carry uid, gameId and paymentExpirationTime (spec
 * section 7). With a measurement id the events go to Firebase Analytics; without one
 * (local mode) they go to a local sink: the console, where tests can read them.
 */
import { config } from '@/lib/config';

export type AnalyticsEventName =
  | 'page_view'
  | 'bookmark'
  | 'search'
  | 'game_start'
  | 'instance_limit'
  | 'video_quality'
  | 'outbound_link';

export interface AnalyticsContext {
  uid?: string;
  paymentExpirationTime?: number | null;
}

/** Analytics outbound-link callback timeout (spec section 9). */
export const OUTBOUND_LINK_TIMEOUT_MS = 250;

let context: AnalyticsContext = {};

export function setAnalyticsContext(next: AnalyticsContext): void {
  context = next;
}

type Sink = (name: AnalyticsEventName, params: Record<string, unknown>) => void;

const consoleSink: Sink = (name, params) => {
  // The local sink: one line per event, prefixed so it can be grepped in logs and tests.
  console.info('[analytics]', JSON.stringify({ name, ...params }));
};

let firebaseSink: Promise<Sink | null> | null = null;
function loadFirebaseSink(): Promise<Sink | null> {
  if (!firebaseSink) {
    firebaseSink = (async () => {
      const [{ getAnalytics, isSupported, logEvent }, { firebaseApp }] = await Promise.all([
        import('firebase/analytics'),
        import('@/lib/firebase/client'),
      ]);
      if (!(await isSupported())) return null;
      const analytics = getAnalytics(firebaseApp());
      const sink: Sink = (name, params) => logEvent(analytics, name as string, params);
      return sink;
    })().catch(() => null);
  }
  return firebaseSink;
}

export function track(name: AnalyticsEventName, params: Record<string, unknown> = {}): void {
  if (typeof window === 'undefined') return;
  const full = {
    uid: context.uid ?? null,
    paymentExpirationTime: context.paymentExpirationTime ?? null,
    gameId: (params.gameId as string | undefined) ?? null,
    ...params,
  };
  if (!config.firebase.measurementId) {
    consoleSink(name, full);
    return;
  }
  void loadFirebaseSink().then((sink) => (sink ?? consoleSink)(name, full));
}

export function trackPageView(url: string): void {
  track('page_view', { page_path: url });
}

/** Records an outbound link click, then navigates, waiting at most 250 ms for the record. */
export function trackOutboundLink(url: string, navigate: () => void): void {
  let done = false;
  const go = () => {
    if (!done) {
      done = true;
      navigate();
    }
  };
  track('outbound_link', { url });
  setTimeout(go, OUTBOUND_LINK_TIMEOUT_MS);
}
