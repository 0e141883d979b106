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
import { requireCredentials, type CloudToken } from './agora/common';
import type { ProviderName, StreamPublisher, StreamSubscriber, TokenOf } from './types';

export class UnsupportedProviderError extends Error {
  constructor(readonly provider: string) {
    super(`streaming provider not available: ${provider}`);
    this.name = 'UnsupportedProviderError';
  }
}

export { MissingCredentialsError, ProviderTimeoutError } from './agora/common';

/** One loader per provider: each import() is its own chunk, fetched only when chosen. */
const SUBSCRIBERS: { [P in ProviderName]: () => Promise<StreamSubscriber<TokenOf<P>>> } = {
  webrtc: async () => new (await import('./webrtc/subscriber')).WebRtcSubscriber(),
  agora: async () => new (await import('./agora/subscriber')).AgoraSubscriber(),
  trtc: async () => new (await import('./trtc/subscriber')).TrtcSubscriber(),
};

const PUBLISHERS: { [P in ProviderName]: () => Promise<StreamPublisher<TokenOf<P>>> } = {
  webrtc: async () => new (await import('./webrtc/publisher')).WebRtcPublisher(),
  agora: async () => new (await import('./agora/publisher')).AgoraPublisher(),
  trtc: async () => new (await import('./trtc/publisher')).TrtcPublisher(),
};

function checkProvider(table: object, provider: ProviderName, token?: TokenOf<ProviderName>): void {
  // The name comes from the api's answer: anything else is refused, never looked up loosely.
  if (!Object.prototype.hasOwnProperty.call(table, provider)) throw new UnsupportedProviderError(String(provider));
  if (token && provider !== 'webrtc') requireCredentials(provider, token as CloudToken);
}

/** The player's adapter for `provider`; with the token, refuses missing credentials before loading. */
export async function createSubscriber<P extends ProviderName>(provider: P, token?: TokenOf<P>): Promise<StreamSubscriber<TokenOf<P>>> {
  checkProvider(SUBSCRIBERS, provider, token);
  return SUBSCRIBERS[provider]();
}

/** The host's adapter for `provider`; with the token, refuses missing credentials before loading. */
export async function createPublisher<P extends ProviderName>(provider: P, token?: TokenOf<P>): Promise<StreamPublisher<TokenOf<P>>> {
  checkProvider(PUBLISHERS, provider, token);
  return PUBLISHERS[provider]();
}

export * from './types';
