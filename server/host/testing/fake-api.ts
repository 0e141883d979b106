/**
 * A small real HTTP + WebSocket peer standing in for the api in the host's tests: it implements
 * the host contract of docs/sessions.md §4 (register, heartbeat, shutdown, state, saves,
 * screenshots, input-activity), records every call, and relays signalling between a host and a
 * player per session like the api's /v1/signal (tokens here are simply "<role>.<sessionId>").
 * It also serves a player page (/player.html + a bundled WebRtcSubscriber) for test players.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bundlePageScript } from '../../shared/page-script';
import { WebSocketServer, type WebSocket } from 'ws';
import { mayRelay, parseSignal, type SignalRole } from '../../../lib/streaming/signal';
import { HOST_ID_HEADER, HOST_SECRET_HEADER } from '../../shared/host-contract';

export interface RecordedCall {
  method: string;
  path: string;
  hostId: string | null;
  secretOk: boolean;
  json: unknown;
  raw: Buffer;
  at: number;
}

export interface FakeApiOptions {
  secret: string;
}

interface Peers {
  host?: WebSocket;
  player?: WebSocket;
}

export class FakeApi {
  url = '';
  signalUrl = '';
  readonly calls: RecordedCall[] = [];
  /** Sessions the fake api counts as live (heartbeat answers them). null = answer every session the host lists. */
  live: Set<string> | null = null;
  /** Answer heartbeats with this status (e.g. 404 to force a re-register). */
  heartbeatStatus = 200;
  /** Answer state reports with this status per session (e.g. 409 = the api closed it). */
  stateStatus = new Map<string, number>();
  readonly screenshots = new Map<string, Buffer>();
  readonly signalFrames: { sid: string; role: SignalRole; type: string }[] = [];
  private server: http.Server;
  private wss: WebSocketServer;
  private peers = new Map<string, Peers>();
  private playerJs: string | null = null;

  constructor(private readonly opts: FakeApiOptions) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname !== '/v1/signal') return socket.destroy();
      const m = /^(host|player)\.(.+)$/.exec(u.searchParams.get('token') ?? '');
      if (!m) return socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSignal(ws, m[1] as SignalRole, m[2]));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${port}`;
    this.signalUrl = `ws://127.0.0.1:${port}/v1/signal`;
    return this;
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections?.();
    await new Promise((r) => this.server.close(r));
  }

  hostToken(sid: string): string {
    return `host.${sid}`;
  }

  playerToken(sid: string): string {
    return `player.${sid}`;
  }

  // ------------------------------------------------------------------------------------------
  // queries for tests

  callsTo(re: RegExp): RecordedCall[] {
    return this.calls.filter((c) => re.test(`${c.method} ${c.path}`));
  }

  states(sid: string): string[] {
    return this.callsTo(new RegExp(`^POST /internal/sessions/${sid}/state$`)).map((c) => {
      const j = c.json as { state: string; reason?: string };
      return j.reason ? `${j.state}:${j.reason}` : j.state;
    });
  }

  saves(sid: string): { slot: string; state: Record<string, unknown> }[] {
    return this.callsTo(new RegExp(`^POST /internal/sessions/${sid}/saves$`)).map((c) => c.json as { slot: string; state: Record<string, unknown> });
  }

  async waitFor<T>(fn: () => T | null | undefined | false, what: string, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() > end) throw new Error(`fake api: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Ends a session on the "api" side: signalling `closed` to both peers. */
  closeSignal(sid: string, reason = 'user'): void {
    const p = this.peers.get(sid);
    for (const ws of [p?.host, p?.player]) {
      if (!ws) continue;
      ws.send(JSON.stringify({ type: 'closed', reason }));
      ws.close(1000, 'closed');
    }
    this.peers.delete(sid);
  }

  /** Drops the player's signalling connection (as if its network went). */
  dropPlayer(sid: string): void {
    this.peers.get(sid)?.player?.terminate();
  }

  // ------------------------------------------------------------------------------------------

  /** Connection events of the relay (for debugging tests). */
  readonly signalEvents: string[] = [];

  private onSignal(ws: WebSocket, role: SignalRole, sid: string): void {
    this.signalEvents.push(`${sid} ${role} open`);
    ws.on('close', (code) => this.signalEvents.push(`${sid} ${role} close ${code}`));
    const peers = this.peers.get(sid) ?? {};
    this.peers.set(sid, peers);
    const old = peers[role];
    if (old) old.close(4409, 'replaced');
    peers[role] = ws;
    const otherRole: SignalRole = role === 'host' ? 'player' : 'host';
    const other = peers[otherRole];
    if (other) {
      other.send(JSON.stringify({ type: 'peer-joined', role }));
      ws.send(JSON.stringify({ type: 'peer-joined', role: otherRole }));
    }
    ws.on('message', (data) => {
      const m = parseSignal(data.toString());
      if (!m || !mayRelay(role, m)) return;
      this.signalFrames.push({ sid, role, type: m.type });
      const to = this.peers.get(sid)?.[otherRole];
      if (to && to.readyState === to.OPEN) to.send(JSON.stringify(m));
    });
    ws.on('close', () => {
      const p = this.peers.get(sid);
      if (!p || p[role] !== ws) return;
      delete p[role];
      const o = p[otherRole];
      if (o && o.readyState === o.OPEN) o.send(JSON.stringify({ type: 'peer-left', role }));
    });
  }

  private async playerBundle(): Promise<string> {
    this.playerJs ??= await bundlePageScript(path.join(__dirname, 'player-page.ts'));
    return this.playerJs;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const u = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.method === 'GET' && u.pathname === '/player.html') {
      return send(200, '<!doctype html><html><body style="margin:0;background:#000"><video id="v" autoplay playsinline muted style="width:1280px;height:720px"></video><script src="/player.js"></script></body></html>', 'text/html');
    }
    if (req.method === 'GET' && u.pathname === '/player.js') return send(200, await this.playerBundle(), 'text/javascript');
    if (req.method === 'GET' && u.pathname === '/elsewhere') return send(200, { reachable: true });

    let json: unknown = null;
    if ((req.headers['content-type'] ?? '').includes('json') && raw.length) {
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(400, { status: 'error', error: { code: 'invalid_request', message: 'bad json' } });
      }
    }
    const given = req.headers[HOST_SECRET_HEADER];
    const secretOk = typeof given === 'string' && given === this.opts.secret;
    const call: RecordedCall = {
      method: req.method ?? '',
      path: u.pathname,
      hostId: (req.headers[HOST_ID_HEADER] as string | undefined) ?? null,
      secretOk,
      json,
      raw,
      at: Date.now(),
    };
    this.calls.push(call);
    if (!secretOk) return send(401, { status: 'error', error: { code: 'unauthorized', message: 'no' } });
    const p = u.pathname;
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && p === '/internal/hosts/register') {
      return send(200, { status: 'ok', state: 'Ready', heartbeatIntervalMs: 2000, heartbeatTimeoutMs: 6000 });
    }
    if (req.method === 'POST' && (m = /^\/internal\/hosts\/([^/]+)\/heartbeat$/.exec(p))) {
      if (this.heartbeatStatus !== 200) return send(this.heartbeatStatus, { status: 'error', error: { code: 'host_not_found', message: 'unknown host' } });
      const listed = ((json as { sessionIds?: string[] })?.sessionIds ?? []) as string[];
      const sessions = this.live ? [...this.live] : listed;
      return send(200, { status: 'ok', state: listed.length ? 'Allocated' : 'Ready', sessions });
    }
    if (req.method === 'POST' && /^\/internal\/hosts\/[^/]+\/shutdown$/.test(p)) return send(200, { status: 'ok', state: 'Shutdown' });
    if (req.method === 'POST' && (m = /^\/internal\/sessions\/([^/]+)\/state$/.exec(p))) {
      const st = this.stateStatus.get(decodeURIComponent(m[1]));
      if (st && st !== 200) return send(st, { status: 'error', error: { code: 'session_closed', message: 'closed' } });
      return send(200, { status: 'ok', session_state: (json as { state: string }).state });
    }
    if (req.method === 'POST' && /^\/internal\/sessions\/[^/]+\/saves$/.test(p)) return send(200, { status: 'ok', updatedAt: new Date().toISOString() });
    if (req.method === 'POST' && (m = /^\/internal\/sessions\/([^/]+)\/screenshots$/.exec(p))) {
      if (req.headers['content-type'] !== 'image/png') return send(415, { status: 'error', error: { code: 'unsupported_media_type', message: 'png only' } });
      const id = crypto.randomUUID();
      this.screenshots.set(id, raw);
      return send(201, { status: 'ok', screenshotId: id });
    }
    if (req.method === 'POST' && /^\/internal\/sessions\/[^/]+\/input-activity$/.test(p)) return send(200, { status: 'ok' });
    return send(404, { status: 'error', error: { code: 'not_found', message: 'not found' } });
  }
}
