/**
 * The message half of the agora provider: Agora RTM v2 on the session's channel (the channel
 * name of the RTC session, a MESSAGE channel). Both peers subscribe; each publishes its JSON
 * messages there and ignores what it published itself. What arrives is handed on raw (string or
 * bytes): the caller runs the protocol's parse function on it.
 */
import AgoraRTM from 'agora-rtm-sdk';
import type { RTMClient, RTMEvents } from 'agora-rtm-sdk';
import type { ConnectionState } from '../types';
import { quietly, withTimeout } from './common';

export interface RtmLinkOptions {
  appId: string;
  userId: string;
  token: string;
  channel: string;
  onRaw(raw: string | Uint8Array): void;
  onState(state: ConnectionState): void;
  /** When given, RTM presence is on: called with whether any other user is in the channel. */
  onPeers?(present: boolean): void;
}

type LinkState = RTMEvents.LinkStateEvent['currentState'];

/** RTM link states → ours. RTM reconnects by itself from DISCONNECTED; SUSPENDED/FAILED need a new login. */
function mapLinkState(state: LinkState): ConnectionState {
  switch (state) {
    case 'CONNECTED':
      return 'connected';
    case 'CONNECTING':
      return 'connecting';
    case 'DISCONNECTED':
      return 'reconnecting';
    case 'SUSPENDED':
      return 'disconnected';
    case 'FAILED':
      return 'failed';
    default:
      return 'disconnected';
  }
}

export class RtmLink {
  private client: RTMClient | null = null;
  private ready = false;
  private closed = false;

  constructor(private readonly o: RtmLinkOptions) {}

  async open(): Promise<void> {
    // The package's UMD build exports the AgoraRTM object ({RTM, ...}) as its default.
    const client = new AgoraRTM.RTM(this.o.appId, this.o.userId);
    this.client = client;
    client.addEventListener('message', this.onMessage);
    client.addEventListener('linkState', this.onLinkState);
    client.addEventListener('presence', this.onPresence);
    await withTimeout(client.login({ token: this.o.token }), 'rtm login');
    await withTimeout(client.subscribe(this.o.channel, { withMessage: true, withPresence: Boolean(this.o.onPeers) }), 'rtm subscribe');
    if (this.closed) return;
    this.ready = true;
  }

  private readonly onMessage = (ev: RTMEvents.MessageEvent) => {
    if (this.closed || ev.channelName !== this.o.channel || ev.publisher === this.o.userId) return;
    this.o.onRaw(ev.message);
  };

  private readonly onLinkState = (ev: RTMEvents.LinkStateEvent) => {
    if (!this.closed) this.o.onState(mapLinkState(ev.currentState));
  };

  private readonly peers = new Set<string>();

  /** Who else is in the channel: a snapshot on subscribe, then joins, leaves and timeouts. */
  private readonly onPresence = (ev: RTMEvents.PresenceEvent) => {
    if (this.closed || !this.o.onPeers || ev.channelName !== this.o.channel) return;
    const before = this.peers.size > 0;
    if (ev.eventType === 'SNAPSHOT') {
      this.peers.clear();
      for (const u of ev.snapshot ?? []) if (u.userId !== this.o.userId) this.peers.add(u.userId);
    } else if (ev.eventType === 'REMOTE_JOIN' && ev.publisher !== this.o.userId) {
      this.peers.add(ev.publisher);
    } else if (ev.eventType === 'REMOTE_LEAVE' || ev.eventType === 'REMOTE_TIMEOUT') {
      this.peers.delete(ev.publisher);
    } else {
      return;
    }
    const now = this.peers.size > 0;
    if (now !== before) this.o.onPeers(now);
  };

  /** Publishes one JSON text; false while the link is not up (the message is not queued). */
  send(text: string): boolean {
    if (!this.ready || !this.client) return false;
    void this.client.publish(this.o.channel, text).catch(() => undefined);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ready = false;
    const client = this.client;
    this.client = null;
    if (!client) return;
    client.removeEventListener('message', this.onMessage);
    client.removeEventListener('linkState', this.onLinkState);
    client.removeEventListener('presence', this.onPresence);
    await quietly(() => client.unsubscribe(this.o.channel));
    await quietly(() => client.logout());
  }
}
