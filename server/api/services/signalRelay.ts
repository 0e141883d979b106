/**
 * The signalling relay of the self-hosted webrtc provider (docs/sessions.md 5). Pairs the host
 * and the player of a session, relays the frames `mayRelay` allows between them, and tells each
 * side when the other joins or leaves and when the session ends.
 *
 * Each replica pairs the sockets it holds. When a session's other side is on another api replica
 * the signal bus (signalBus.ts, PostgreSQL LISTEN/NOTIFY) carries frames, joins, leaves and ends
 * between them (docs/sessions.md, "Signalling across replicas"). Session state lives in PostgreSQL
 * (the player joining marks the session `playing`; leaving starts the reconnect grace), and
 * `checkEnded` (run by the sweeper) closes sockets of sessions another process ended, should the
 * bus have missed it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket, RawData } from 'ws';
import { MAX_SIGNAL_CHARS, mayRelay, parseSignal, PEER_ID, type SignalMessage, type SignalRole } from '../../../lib/streaming/signal';
import type { SessionService } from './sessions/service';
import type { BusEvent, BusStats, SignalBus } from './signalBus';
import { SignalTokenError, type SignalTokens } from './tokens';

export const CLOSE_BAD_TOKEN = 4401;
export const CLOSE_NOT_LIVE = 4404;
export const CLOSE_REPLACED = 4409;
export const CLOSE_FLOOD = 4429;

/** Token bucket per connection: ICE trickling sends bursts, nothing legitimate sends more. */
export const RATE_PER_SECOND = 50;
export const RATE_BURST = 200;
/** A connection that keeps sending past the limits is closed. */
export const MAX_DROPS = 1000;
/** Frames received while the token is being checked (the client may send at once). */
const MAX_PENDING = 50;
const PING_INTERVAL_MS = 20_000;
const JOINABLE_STATES = new Set(['allocating', 'starting', 'ready', 'playing']);

interface Peer {
  ws: WebSocket;
  sessionId: string;
  role: SignalRole;
  tokens: number;
  lastRefill: number;
  drops: number;
  alive: boolean;
  /** When it joined (ms): of two sockets of one role on two replicas, the newer one stays. */
  joinedAt: number;
  /** The page's id (`?peer=`, PEER_ID), passed on in `peer-joined`: a reconnect of the same page is known as such. */
  pageId?: string;
  /** The joinedAt of the other side this peer was last told `peer-joined` about (told once, though a join and an answer to it may cross). */
  announced: number | null;
  /** Closed by us on purpose (replaced, session ended): its close does not count as leaving. */
  retired: boolean;
}

export interface RelayStats {
  connections: number;
  /** Frames delivered to the other peer on this replica. */
  relayed: number;
  /** Frames whose other peer is not here, handed to the signal bus (another replica may deliver them: its relayedIn). */
  published: number;
  dropped: number;
  rejected: number;
  /** Frames delivered here that another replica received. */
  relayedIn: number;
}

export class SignalRelay {
  private readonly sessions = new Map<string, { host?: Peer; player?: Peer }>();
  private readonly counters = { relayed: 0, published: 0, dropped: 0, rejected: 0, relayedIn: 0 };
  private shuttingDown = false;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly service: SessionService,
    private readonly signalTokens: SignalTokens,
    private readonly log: FastifyBaseLogger,
    /** Other replicas; null: this process is the only one (tests of one replica). */
    private readonly bus: SignalBus | null = null,
  ) {
    service.onSessionEnded((sessionId, reason) => this.sessionEnded(sessionId, reason));
    bus?.subscribe((event) => this.fromBus(event));
    this.pinger = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  stats(): RelayStats {
    let connections = 0;
    for (const entry of this.sessions.values()) connections += (entry.host ? 1 : 0) + (entry.player ? 1 : 0);
    return { connections, ...this.counters };
  }

  /** The signal bus's figures; null without one. */
  busStats(): BusStats | null {
    return this.bus?.stats() ?? null;
  }

  /** Whether a peer of this role is connected here (tests, diagnostics). */
  has(sessionId: string, role: SignalRole): boolean {
    return Boolean(this.sessions.get(sessionId)?.[role]);
  }

  /** A new WebSocket with the `token` (and optional `peer`) query parameters. */
  async accept(ws: WebSocket, token: string | undefined, pageId?: string): Promise<void> {
    // Frames the client sends before we finish checking are kept (a few) and handled after.
    const pending: { data: RawData; isBinary: boolean }[] = [];
    const early = (data: RawData, isBinary: boolean) => {
      if (pending.length < MAX_PENDING) pending.push({ data, isBinary });
    };
    ws.on('message', early);

    let claims;
    try {
      if (!token) throw new SignalTokenError('invalid');
      claims = await this.signalTokens.verify(token);
    } catch (error) {
      this.counters.rejected += 1;
      const reason = error instanceof SignalTokenError && error.reason === 'expired' ? 'token expired' : 'bad token';
      ws.close(CLOSE_BAD_TOKEN, reason);
      return;
    }
    const target = await this.service.signalTarget(claims.sessionId).catch((error) => {
      this.log.error({ err: error }, 'signal: session lookup failed');
      return undefined;
    });
    if (target === undefined) {
      ws.close(1011, 'try again');
      return;
    }
    if (!target || target.uid !== claims.uid || !JOINABLE_STATES.has(target.state)) {
      this.counters.rejected += 1;
      ws.close(CLOSE_NOT_LIVE, 'session not live');
      return;
    }
    if (this.shuttingDown || ws.readyState !== ws.OPEN) {
      ws.close(1001, 'going away');
      return;
    }

    const peer: Peer = {
      ws,
      sessionId: claims.sessionId,
      role: claims.role,
      tokens: RATE_BURST,
      lastRefill: Date.now(),
      drops: 0,
      alive: true,
      joinedAt: Date.now(),
      pageId: pageId && PEER_ID.test(pageId) ? pageId : undefined,
      announced: null,
      retired: false,
    };
    ws.off('message', early);
    ws.on('message', (data, isBinary) => this.onFrame(peer, data, isBinary));
    ws.on('pong', () => {
      peer.alive = true;
    });
    ws.on('close', () => this.onClose(peer));

    const entry = this.sessions.get(peer.sessionId) ?? {};
    this.sessions.set(peer.sessionId, entry);
    const previous = entry[peer.role];
    entry[peer.role] = peer;
    if (previous) {
      previous.retired = true;
      previous.ws.close(CLOSE_REPLACED, 'replaced');
    }
    const other = entry[otherRole(peer.role)];
    if (other) {
      announce(other, peer.role, peer.joinedAt, peer.pageId);
      announce(peer, other.role, other.joinedAt, other.pageId);
    }
    // Always: the other side may be on another replica, and so may an older socket of this role.
    this.bus?.publish({ kind: 'joined', sessionId: peer.sessionId, role: peer.role, at: peer.joinedAt, pageId: peer.pageId });
    if (peer.role === 'player') {
      await this.service.playerJoined(peer.sessionId).catch((error) => this.log.error({ err: error }, 'signal: join not recorded'));
    }
    for (const frame of pending) this.onFrame(peer, frame.data, frame.isBinary);
  }

  private onFrame(peer: Peer, data: RawData, isBinary: boolean): void {
    if (peer.retired) return;
    const now = Date.now();
    peer.tokens = Math.min(RATE_BURST, peer.tokens + ((now - peer.lastRefill) / 1000) * RATE_PER_SECOND);
    peer.lastRefill = now;
    if (peer.tokens < 1) return this.drop(peer, 'rate');
    peer.tokens -= 1;

    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
    if (isBinary || bytes > MAX_SIGNAL_CHARS) return this.drop(peer, isBinary ? 'binary' : 'size');
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
    const message = parseSignal(text);
    if (!message || !mayRelay(peer.role, message)) return this.drop(peer, 'not allowed');
    const other = this.sessions.get(peer.sessionId)?.[otherRole(peer.role)];
    if (other) {
      send(other.ws, message);
      this.counters.relayed += 1;
    } else if (this.bus) {
      // Not here: the replica that holds it (if any) delivers it, and counts it there (relayedIn).
      this.bus.publish({ kind: 'frame', sessionId: peer.sessionId, to: otherRole(peer.role), text: JSON.stringify(message) });
      this.counters.published += 1;
    } else this.drop(peer, 'no peer');
  }

  private drop(peer: Peer, why: string): void {
    this.counters.dropped += 1;
    peer.drops += 1;
    if (peer.drops === 1 || peer.drops % 100 === 0) {
      this.log.debug({ sessionId: peer.sessionId, role: peer.role, why, drops: peer.drops }, 'signal frame dropped');
    }
    if (peer.drops >= MAX_DROPS && !peer.retired) {
      this.log.warn({ sessionId: peer.sessionId, role: peer.role }, 'signal: closing a flooding connection');
      peer.ws.close(CLOSE_FLOOD, 'too many frames');
    }
  }

  private onClose(peer: Peer): void {
    const entry = this.sessions.get(peer.sessionId);
    if (!entry || entry[peer.role] !== peer) return;
    delete entry[peer.role];
    if (!entry.host && !entry.player) this.sessions.delete(peer.sessionId);
    if (peer.retired || this.shuttingDown) return;
    const other = entry[otherRole(peer.role)];
    if (other) send(other.ws, { type: 'peer-left', role: peer.role });
    else this.bus?.publish({ kind: 'left', sessionId: peer.sessionId, role: peer.role });
    if (peer.role === 'player') {
      this.service.playerLeft(peer.sessionId).catch((error) => this.log.error({ err: error }, 'signal: leave not recorded'));
    }
  }

  /** The session ended (or is closing): tell both peers and close their sockets, here and on the other replicas. */
  sessionEnded(sessionId: string, reason: string, fromBus = false): void {
    if (!fromBus) this.bus?.publish({ kind: 'ended', sessionId, reason: reason.slice(0, 64) });
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    this.sessions.delete(sessionId);
    for (const peer of [entry.host, entry.player]) {
      if (!peer) continue;
      peer.retired = true;
      send(peer.ws, { type: 'closed', reason: reason.slice(0, 64) });
      peer.ws.close(1000, 'session closed');
    }
  }

  /** What another replica published about a session whose sockets may be here. */
  private fromBus(event: BusEvent): void {
    const entry = this.sessions.get(event.sessionId);
    switch (event.kind) {
      case 'frame': {
        const to = entry?.[event.to];
        if (!to) return;
        if (to.ws.readyState === to.ws.OPEN) to.ws.send(event.text);
        this.counters.relayedIn += 1;
        return;
      }
      case 'joined': {
        if (!entry) return;
        const same = entry[event.role];
        if (same && same.joinedAt <= event.at) {
          // The same side reconnected through another replica: this socket is the stale one.
          delete entry[event.role];
          same.retired = true;
          same.ws.close(CLOSE_REPLACED, 'replaced');
        }
        const other = entry[otherRole(event.role)];
        if (other) {
          announce(other, event.role, event.at, event.pageId);
          this.bus?.publish({ kind: 'present', sessionId: event.sessionId, role: other.role, at: other.joinedAt, pageId: other.pageId });
        }
        if (!entry.host && !entry.player) this.sessions.delete(event.sessionId);
        return;
      }
      case 'present': {
        const other = entry?.[otherRole(event.role)];
        if (other) announce(other, event.role, event.at, event.pageId);
        return;
      }
      case 'left': {
        const other = entry?.[otherRole(event.role)];
        if (other) send(other.ws, { type: 'peer-left', role: event.role });
        return;
      }
      case 'ended':
        this.sessionEnded(event.sessionId, event.reason, true);
        return;
    }
  }

  /** Closes sockets of local sessions that ended elsewhere (another api process). */
  async checkEnded(): Promise<void> {
    const ended = await this.service.endedAmong([...this.sessions.keys()]);
    for (const { id, reason } of ended) this.sessionEnded(id, reason);
  }

  /** Api shutdown: sockets close without recording anyone as gone (they reconnect elsewhere). */
  shutdown(): void {
    this.shuttingDown = true;
    clearInterval(this.pinger);
    for (const entry of this.sessions.values()) {
      for (const peer of [entry.host, entry.player]) peer?.ws.close(1001, 'api restarting');
    }
  }

  private ping(): void {
    for (const entry of this.sessions.values()) {
      for (const peer of [entry.host, entry.player]) {
        if (!peer) continue;
        if (!peer.alive) {
          peer.ws.terminate();
          continue;
        }
        peer.alive = false;
        peer.ws.ping();
      }
    }
  }
}

function otherRole(role: SignalRole): SignalRole {
  return role === 'host' ? 'player' : 'host';
}

/** Tells a peer the other side (joined at `at`) is there, once per joining. */
function announce(peer: Peer, role: SignalRole, at: number, pageId: string | undefined): void {
  if (peer.announced === at) return;
  peer.announced = at;
  send(peer.ws, pageId ? { type: 'peer-joined', role, peer: pageId } : { type: 'peer-joined', role });
}

function send(ws: WebSocket, message: SignalMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}
