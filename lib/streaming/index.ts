/**
 * Picks the streaming provider for a session token. Providers load with import() so their
 * SDKs (which touch `window` at import) only ever load in a browser, on the play page, and only
 * the chosen one: the webrtc path never loads agora-rtc-sdk-ng, agora-rtm-sdk or trtc-js-sdk
 * (each is its own dynamic chunk).
 *
 * A token naming agora or trtc whose fields for that provider are empty (the api sends empty
 * strings when it has no credentials for it) is refused with MissingCredentialsError before any
 * SDK loads, rather than joining half-way. Pass the token to get that check here; the adapters
 * check again when they join.
 */
import { requireCredentials } from './agora/common';
import type { ProviderName, SessionToken, StreamPublisher, StreamSubscriber } from './types';

export class UnsupportedProviderError extends Error {
  constructor(readonly provider: string) {
    super(`streaming provider not available: ${provider}`);
    this.name = 'UnsupportedProviderError';
  }
}

export { MissingCredentialsError, ProviderTimeoutError } from './agora/common';

/** One loader per provider: each import() is its own chunk, fetched only when chosen. */
const SUBSCRIBERS: Record<ProviderName, () => Promise<StreamSubscriber>> = {
  webrtc: async () => new (await import('./webrtc/subscriber')).WebRtcSubscriber(),
  agora: async () => new (await import('./agora/subscriber')).AgoraSubscriber(),
  trtc: async () => new (await import('./trtc/subscriber')).TrtcSubscriber(),
};

const PUBLISHERS: Record<ProviderName, () => Promise<StreamPublisher>> = {
  webrtc: async () => new (await import('./webrtc/publisher')).WebRtcPublisher(),
  agora: async () => new (await import('./agora/publisher')).AgoraPublisher(),
  trtc: async () => new (await import('./trtc/publisher')).TrtcPublisher(),
};

function loaderFor<T>(table: Record<ProviderName, () => Promise<T>>, provider: ProviderName, token?: SessionToken): () => Promise<T> {
  // The name comes from the api's answer: anything else is refused, never looked up loosely.
  if (!Object.prototype.hasOwnProperty.call(table, provider)) throw new UnsupportedProviderError(String(provider));
  if (token && provider !== 'webrtc') requireCredentials(provider, token);
  return table[provider];
}

export async function createSubscriber(provider: ProviderName, token?: SessionToken): Promise<StreamSubscriber> {
  return loaderFor(SUBSCRIBERS, provider, token)();
}

export async function createPublisher(provider: ProviderName, token?: SessionToken): Promise<StreamPublisher> {
  return loaderFor(PUBLISHERS, provider, token)();
}

export * from './types';
