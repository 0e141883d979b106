/**
 * A signalling client for the relay's integration tests, as the browser's SignalClient would be:
 * opens GET /v1/signal with a token, collects the frames it gets and the close code. And
 * `readySignalSession`: a new user's session, started and ready, with both peers' signal tokens.
 */
import WebSocket from 'ws';
import type { FakeHost } from './fake-host';
import { request, waitFor, type TestUsers } from './sessions';

export class SignalPeer {
  readonly frames: Record<string, unknown>[] = [];
  closeCode: number | null = null;
  closeReason = '';
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(url: string, token: string, peerId?: string) {
    this.ws = new WebSocket(`${url}?token=${encodeURIComponent(token)}${peerId ? `&peer=${peerId}` : ''}`);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        resolve();
      });
    });
    this.ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  next(match: Record<string, unknown>, timeoutMs = 3_000): Promise<Record<string, unknown>> {
    return waitFor(
      () => this.frames.find((frame) => Object.entries(match).every(([key, value]) => JSON.stringify(frame[key]) === JSON.stringify(value))),
      timeoutMs,
      `frame ${JSON.stringify(match)}`,
    );
  }

  count(type: string): number {
    return this.frames.filter((frame) => frame.type === type).length;
  }

  async waitClosed(timeoutMs = 3_000): Promise<number> {
    await waitFor(() => this.closeCode !== null, timeoutMs, 'socket close');
    return this.closeCode!;
  }

  close(): void {
    this.ws.close(1000);
  }
}

export interface ReadySignalSession {
  id: string;
  uid: string;
  idToken: string;
  playerToken: string;
  hostToken: string;
}

/** A new user's session of `game` started through `startBase`, polled ready and its token got through `pollBase`. */
export async function readySignalSession(users: TestUsers, host: FakeHost, game: string, startBase: string, pollBase = startBase): Promise<ReadySignalSession> {
  const user = await users.email();
  const started = await request(startBase, 'GET', `/v1/game/${game}/start`, { token: user.idToken });
  const id = started.body.game_session_id;
  await waitFor(async () => (await request(pollBase, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state === 'ready');
  const token = await request(pollBase, 'GET', `/v1/session/${id}/get_token`, { token: user.idToken });
  return { id, uid: user.uid, idToken: user.idToken, playerToken: token.body.webrtc_signal_token, hostToken: host.started.get(id)!.signalToken };
}
