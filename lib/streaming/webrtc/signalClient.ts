/**
 * The WebSocket to the api's signalling endpoint, for either peer. It reconnects by itself
 * (a restarted api or a dropped network must not end a game) until closed or refused.
 */
import { parseSignal, type SignalMessage } from '../signal';

export interface SignalClientOptions {
  url: string;
  token: string;
  /** This page's id (PEER_ID), sent as `?peer=` so a reconnect is known as the same page. */
  peerId?: string;
  onMessage(m: SignalMessage): void;
  onOpen?(): void;
  /** Called when the api refuses us for good (bad/expired token, closed session). */
  onRefused?(reason: string): void;
  /**
   * Opens the socket: default the platform's WebSocket (a browser's). The light runtime's Node
   * process (Node 20 has none) passes the `ws` package's, which has the same events.
   */
  open?(url: string): WebSocket;
}

/** WebSocket.OPEN, which a socket from `open` may not have as a global to read it from. */
const OPEN = 1;

const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class SignalClient {
  private ws: WebSocket | null = null;
  private closed = false;
  private attempt = 0;
  private queue: string[] = [];

  constructor(private readonly opts: SignalClientOptions) {}

  connect(): void {
    if (this.closed) return;
    const sep = this.opts.url.includes('?') ? '&' : '?';
    const peer = this.opts.peerId ? `&peer=${encodeURIComponent(this.opts.peerId)}` : '';
    const url = `${this.opts.url}${sep}token=${encodeURIComponent(this.opts.token)}${peer}`;
    const ws = this.opts.open ? this.opts.open(url) : new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      for (const q of this.queue.splice(0)) ws.send(q);
      this.opts.onOpen?.();
    };
    ws.onmessage = (ev) => {
      const m = parseSignal(typeof ev.data === 'string' ? ev.data : '');
      if (!m) return;
      if (m.type === 'closed') {
        this.closed = true;
        this.opts.onRefused?.(m.reason);
      }
      this.opts.onMessage(m);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // 4401/4403/4404: the api refused the token or the session; do not hammer it.
      if (ev.code >= 4400 && ev.code < 4500) {
        this.closed = true;
        this.opts.onRefused?.(ev.reason || String(ev.code));
        return;
      }
      if (this.closed) return;
      const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), wait);
    };
  }

  /** The socket is open now. */
  isOpen(): boolean {
    return !!this.ws && this.ws.readyState === OPEN;
  }

  send(m: SignalMessage): void {
    const text = JSON.stringify(m);
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(text);
    else if (this.queue.length < 200) this.queue.push(text);
  }

  close(): void {
    this.closed = true;
    this.ws?.close(1000, 'bye');
    this.ws = null;
  }
}
