/**
 * The shared server timeouts and rate limits on a bare Fastify app with a WebSocket route (like
 * the api's signalling relay): a WebSocket lives on long past the request timeout (the timeouts
 * cover receiving a request, and an upgraded connection has none left), and its upgrade spends
 * the budget its route is given. Also: Node keeps the deadlines it is given (no silent swap).
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { errorBody } from './errors';
import { serverTimeoutOptions, type ServerTimeouts } from './http-limits';
import rateLimitPlugin from './rate-limit';

jest.setTimeout(30_000);

const SMALL: ServerTimeouts = { headersTimeoutMs: 500, requestTimeoutMs: 1_000, checkIntervalMs: 100 };

describe('server timeouts and rate limits with a WebSocket route', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ ...serverTimeoutOptions(SMALL) });
    app.setErrorHandler(async (error: { code?: string; statusCode?: number }, _request, reply) =>
      reply.code(error.statusCode ?? 500).send(errorBody(error.code === 'rate_limited' ? 'rate_limited' : 'internal')),
    );
    await app.register(rateLimitPlugin, {
      limits: { windowMs: 60_000, userMax: 1, publicMax: 2, internalMax: 100, allow: [] },
      groupOf: (route) => (route.url === '/ws' ? 'internal' : 'public'),
    });
    await app.register(websocket);
    app.get('/ws', { websocket: true }, (socket) => {
      socket.on('message', (data) => socket.send(`echo ${data.toString()}`));
    });
    app.get('/ping', async () => ({ status: 'ok' }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('gives Node the deadlines as configured', () => {
    expect(app.server.headersTimeout).toBe(SMALL.headersTimeoutMs);
    expect(app.server.requestTimeout).toBe(SMALL.requestTimeoutMs);
  });

  it('keeps a WebSocket open and working well past the request timeout', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let closed = false;
    ws.once('close', () => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, SMALL.requestTimeoutMs * 3));
    expect(closed).toBe(false);
    const echoed = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    ws.send('hello');
    expect(await echoed).toBe('echo hello');
    ws.close();
  });

  it('counts upgrades on the route budget (internal here), not the public one', async () => {
    for (let i = 0; i < 5; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.close();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`http://127.0.0.1:${port}/ping`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
