/**
 * Picks the streaming provider for a session token. Providers load with import() so their
 * SDKs (which touch `window` at import) only ever load in a browser, on the play page.
 * agora and trtc implement the same interfaces in later work; until then a token naming
 * them is refused with a clear error rather than half-working.
 */
import type { ProviderName, StreamPublisher, StreamSubscriber } from './types';

export class UnsupportedProviderError extends Error {
  constructor(readonly provider: string) {
    super(`streaming provider not available: ${provider}`);
    this.name = 'UnsupportedProviderError';
  }
}

export async function createSubscriber(provider: ProviderName): Promise<StreamSubscriber> {
  if (provider === 'webrtc') return new (await import('./webrtc/subscriber')).WebRtcSubscriber();
  throw new UnsupportedProviderError(provider);
}

export async function createPublisher(provider: ProviderName): Promise<StreamPublisher> {
  if (provider === 'webrtc') return new (await import('./webrtc/publisher')).WebRtcPublisher();
  throw new UnsupportedProviderError(provider);
}

export * from './types';
