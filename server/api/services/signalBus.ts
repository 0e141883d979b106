/**
 * The bus between api replicas for the signalling relay (docs/sessions.md, "Signalling across
 * replicas"): a session's host and player may hold their WebSockets on different replicas, so a
 * replica that has only one side publishes what the other side must get, and the replica holding
 * the other side delivers it. PostgreSQL `LISTEN/NOTIFY` carries it: the database every replica
 * already uses, no new server to run.
 *
 * One dedicated connection per replica both listens and publishes. Publishing on that one
 * connection keeps a peer's frames in order (an offer before its candidates), which the pool's
 * connections would not. NOTIFY payloads are limited to 8000 bytes and a signalling frame may be
 * 64 kB (MAX_SIGNAL_CHARS), so an event is sent as base64 chunks of CHUNK_BYTES and put together
 * again on the other side. The connection is reopened when it drops; what is published meanwhile
 * is lost, as a frame to a peer that is not there is (the clients' own timeouts recover).
 *
 * Under PgBouncer in transaction mode LISTEN does not work: DATABASE_LISTEN_URL points this
 * connection straight at PostgreSQL (docs/deploy.md).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { SignalRole } from '../../../lib/streaming/signal';
import { loadDatabaseTimeouts } from '../config';
import { assertIdentifier } from '../db/pool';

/** What replicas tell each other about a session's two sides. */
export type BusEvent =
  /** A frame for the session's peer of role `to`, already checked by the sending replica. */
  | { kind: 'frame'; sessionId: string; to: SignalRole; text: string }
  /** A peer of `role` joined on the sending replica at `at` (ms): the other side learns it, an older same-role socket elsewhere is replaced. */
  | { kind: 'joined'; sessionId: string; role: SignalRole; at: number; pageId?: string }
  /** Answer to `joined`: a peer of `role` is on the sending replica (the joiner's replica tells its peer). */
  | { kind: 'present'; sessionId: string; role: SignalRole; at: number; pageId?: string }
  /** A peer of `role` left the sending replica (not replaced, not shutting down). */
  | { kind: 'left'; sessionId: string; role: SignalRole }
  /** The session ended: every replica closes its sockets of it. */
  | { kind: 'ended'; sessionId: string; reason: string };

export interface SignalBus {
  /** This replica's id (events it published come back to it and are ignored). */
  readonly replica: string;
  publish(event: BusEvent): void;
  /** The handler gets every event another replica published. */
  subscribe(handler: (event: BusEvent) => void): void;
  stats(): BusStats;
  close(): Promise<void>;
}

export interface BusStats {
  connected: boolean;
  published: number;
  received: number;
  /** Events not published (no connection) or not put together (a chunk missing). */
  lost: number;
}

/** A NOTIFY payload is at most 8000 bytes; a chunk in base64 plus its envelope stays well under. */
export const CHUNK_BYTES = 5_000;
/** A partly received event is given up after this long. */
const ASSEMBLY_TTL_MS = 10_000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

interface Envelope {
  /** Sending replica. */
  o: string;
  /** Message number on that replica. */
  i: number;
  /** Chunk index and count. */
  n: number;
  c: number;
  /** Base64 of this chunk of the event's JSON. */
  d: string;
}

export interface PgSignalBusOptions {
  /** DATABASE_LISTEN_URL: a direct (or session-pooled) connection; LISTEN needs one. */
  databaseUrl: string;
  /** The test schema, if any: it names the channel (and the connection's application_name), so parallel test runs do not hear each other. */
  schema?: string;
  log: FastifyBaseLogger;
}

/** The channel name for a schema (identifiers only, checked). */
export function channelFor(schema?: string): string {
  return schema ? `yumecast_signal_${assertIdentifier(schema)}`.slice(0, 63) : 'yumecast_signal';
}

/** Splits an event into NOTIFY payloads (exported for the unit test). */
export function encodeEvent(event: BusEvent, replica: string, messageId: number): string[] {
  const bytes = Buffer.from(JSON.stringify(event), 'utf8');
  const count = Math.max(1, Math.ceil(bytes.length / CHUNK_BYTES));
  const out: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const envelope: Envelope = { o: replica, i: messageId, n, c: count, d: bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES).toString('base64') };
    out.push(JSON.stringify(envelope));
  }
  return out;
}

/** Puts chunked events together again; whole events come out of `add`. */
export class EventAssembler {
  private readonly partial = new Map<string, { parts: string[]; got: number; started: number }>();
  lost = 0;

  /** `skipOrigin`: this replica's own events come back to it and are not decoded. */
  add(payload: string, now = Date.now(), skipOrigin?: string): { origin: string; event: BusEvent } | null {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      this.lost += 1;
      return null;
    }
    if (
      typeof envelope !== 'object' || envelope === null || typeof envelope.o !== 'string' || typeof envelope.d !== 'string' ||
      !Number.isInteger(envelope.c) || envelope.c < 1 || envelope.c > 64 || !(envelope.n >= 0 && envelope.n < envelope.c)
    ) {
      this.lost += 1;
      return null;
    }
    if (envelope.o === skipOrigin) return null;
    let json: string;
    if (envelope.c === 1) json = Buffer.from(envelope.d, 'base64').toString('utf8');
    else {
      const key = `${envelope.o}/${envelope.i}`;
      const entry = this.partial.get(key) ?? { parts: new Array<string>(envelope.c), got: 0, started: now };
      this.partial.set(key, entry);
      if (entry.parts[envelope.n] === undefined) entry.got += 1;
      entry.parts[envelope.n] = envelope.d;
      this.expire(now);
      if (entry.got < envelope.c) return null;
      this.partial.delete(key);
      json = Buffer.concat(entry.parts.map((part) => Buffer.from(part, 'base64'))).toString('utf8');
    }
    try {
      return { origin: envelope.o, event: JSON.parse(json) as BusEvent };
    } catch {
      this.lost += 1;
      return null;
    }
  }

  private expire(now: number): void {
    for (const [key, entry] of this.partial) {
      if (now - entry.started > ASSEMBLY_TTL_MS) {
        this.partial.delete(key);
        this.lost += 1;
      }
    }
  }
}

export class PgSignalBus implements SignalBus {
  readonly replica = randomUUID();
  private readonly channel: string;
  private client: pg.Client | null = null;
  private connected = false;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private messageId = 0;
  private sending: Promise<void> = Promise.resolve();
  private readonly handlers: ((event: BusEvent) => void)[] = [];
  private readonly assembler = new EventAssembler();
  private readonly counters = { published: 0, received: 0, lost: 0 };

  constructor(private readonly options: PgSignalBusOptions) {
    this.channel = channelFor(options.schema);
  }

  /**
   * Opens the connection and starts listening. A database that is down does not stop the api
   * from starting (it answers 503 meanwhile, docs/reliability.md): the bus keeps trying.
   */
  async start(): Promise<void> {
    await this.connect().catch((error: Error) => {
      this.options.log.warn({ err: error }, 'signal bus: cannot listen yet; retrying');
      this.scheduleReconnect();
    });
  }

  subscribe(handler: (event: BusEvent) => void): void {
    this.handlers.push(handler);
  }

  publish(event: BusEvent): void {
    const client = this.client;
    if (!client || !this.connected) {
      this.counters.lost += 1;
      return;
    }
    this.messageId += 1;
    const payloads = encodeEvent(event, this.replica, this.messageId);
    // One after another on this one connection, so they arrive in order; a failure is the
    // connection's (it is reopened).
    this.sending = this.sending.then(async () => {
      try {
        for (const payload of payloads) await client.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
      } catch (error) {
        this.counters.lost += 1;
        this.lost(client, error as Error);
      }
    });
    this.counters.published += 1;
  }

  stats(): BusStats {
    return { connected: this.connected, ...this.counters, lost: this.counters.lost + this.assembler.lost };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.connected = false;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    // The pool's connect and answer limits (DATABASE_*_TIMEOUT_MS, db/pool.ts), and TCP keep-alive:
    // a stalled or half-open connection fails and is reopened instead of holding the frames.
    const timeouts = loadDatabaseTimeouts();
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: this.channel,
      connectionTimeoutMillis: timeouts.connectTimeoutMs,
      query_timeout: timeouts.queryTimeoutMs || undefined,
      keepAlive: true,
    });
    client.on('notification', (message) => this.onNotification(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      throw error;
    }
    if (this.closed || this.client !== client) {
      await client.end().catch(() => {});
      return;
    }
    this.connected = true;
    this.retryMs = RECONNECT_MIN_MS;
  }

  /** The listening connection failed or ended: reopen it (unless the bus is closed). */
  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.connected = false;
    if (error) this.options.log.warn({ err: error }, 'signal bus: connection failed');
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.connect().catch((error: Error) => {
        this.options.log.warn({ err: error, retryMs: this.retryMs }, 'signal bus: reconnect failed');
        this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private onNotification(message: pg.Notification): void {
    if (message.channel !== this.channel || !message.payload) return;
    const whole = this.assembler.add(message.payload, Date.now(), this.replica);
    if (!whole) return;
    this.counters.received += 1;
    for (const handler of this.handlers) {
      try {
        handler(whole.event);
      } catch (error) {
        this.options.log.error({ err: error }, 'signal bus: handler failed');
      }
    }
  }
}
