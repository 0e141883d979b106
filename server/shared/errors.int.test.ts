/**
 * The envelope also for what fails before a route runs (errors.ts `envelopeServerOptions`), in
 * a real Fastify server spoken to over a raw socket: a path that does not decode, a malformed
 * request line, headers over Node's limit, an over-long path parameter; and the
 * clientErrorHandler's 408 for a request not received in time. None of them repeats the
 * request. Also the validation message, which names fields from the schema only.
 * (No services needed.)
 */
import net, { type AddressInfo, type Socket } from 'node:net';
import Fastify, { type ConnectionError, type FastifyError, type FastifyInstance } from 'fastify';
import { isApiErrorResponse } from '../../lib/api-types/errors';
import { clientErrorHandler, envelopeServerOptions, errorBody, MAX_PARAM_LENGTH, validationMessage } from './errors';

jest.setTimeout(30_000);

const MARKER = 'echomarker42';

function raw(port: number, bytes: string): Promise<{ status: number; body: string; text: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      socket.end();
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.split('\r\n\r\n').slice(1).join('\r\n\r\n'), text });
    });
  });
}

async function start(options: Record<string, unknown> = {}): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ ...envelopeServerOptions, ...options });
  app.setErrorHandler(async (error: FastifyError, _request, reply) => reply.code(400).send(errorBody('invalid_request', validationMessage(error))));
  app.get('/item/:id', async (request) => ({ status: 'ok', length: (request.params as { id: string }).id.length }));
  app.post(
    '/body',
    { schema: { body: { type: 'object', properties: { stats: { type: 'object', additionalProperties: { type: 'number' } } } } } },
    async () => ({ status: 'ok' }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}

function expectEnvelope(answer: { status: number; body: string; text: string }, status: number, code: string): void {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as unknown;
  expect(isApiErrorResponse(body)).toBe(true);
  expect(body).toMatchObject({ error: { code } });
  expect(answer.text).not.toContain(MARKER);
}

describe('answers before routing', () => {
  let server: { app: FastifyInstance; port: number };

  beforeAll(async () => {
    server = await start();
  });

  afterAll(async () => {
    await server?.app.close();
  });

  it('answers a path that does not decode with 400 invalid_request, not echoing it', async () => {
    expectEnvelope(await raw(server.port, `GET /item/${MARKER}%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'invalid_request');
    expectEnvelope(await raw(server.port, `GET /${MARKER}/%zz HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'invalid_request');
  });

  it("answers what Node's parser refuses (request line, header size) with 400 invalid_request", async () => {
    expectEnvelope(await raw(server.port, `GARBAGE ${MARKER}\r\n\r\n`), 400, 'invalid_request');
    expectEnvelope(await raw(server.port, `GET /${MARKER}\x01 HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'invalid_request');
    expectEnvelope(await raw(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-${MARKER}: ${'a'.repeat(20_000)}\r\n\r\n`), 400, 'invalid_request');
    expectEnvelope(await raw(server.port, `GET /item/${MARKER}${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'invalid_request');
  });

  it('hands path parameters of any length a URL can carry to the route (its schema decides)', async () => {
    const answer = await raw(server.port, `GET /item/${'a'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok', length: 10_000 });
    expect(MAX_PARAM_LENGTH).toBeGreaterThanOrEqual(16 * 1024);
  });

  it('names fields from the schema only, never a key the request made up', async () => {
    const body = JSON.stringify({ stats: { [MARKER]: 'x' } });
    const answer = await raw(
      server.port,
      `POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expectEnvelope(answer, 400, 'invalid_request');
    expect(JSON.parse(answer.body).error.message).toBe('リクエストの内容が正しくありません（本文: stats）。');
  });
});

it('answers a path parameter over the router limit with 404 not_found', async () => {
  const server = await start({ routerOptions: { maxParamLength: 10 } });
  try {
    expectEnvelope(await raw(server.port, `GET /item/${MARKER}${MARKER} HTTP/1.1\r\nHost: x\r\n\r\n`), 404, 'not_found');
  } finally {
    await server.app.close();
  }
});

describe('clientErrorHandler', () => {
  function fakeSocket(): { socket: Socket; written: string[]; destroyed: unknown[] } {
    const written: string[] = [];
    const destroyed: unknown[] = [];
    const socket = { destroyed: false, writable: true, write: (text: string) => written.push(text), destroy: (error: unknown) => destroyed.push(error) };
    return { socket: socket as unknown as Socket, written, destroyed };
  }
  const failure = (code: string) => Object.assign(new Error(code), { code, rawPacket: Buffer.from(MARKER) }) as unknown as ConnectionError;

  it('answers a request not received in time with 408 and the envelope, then closes', () => {
    const { socket, written, destroyed } = fakeSocket();
    clientErrorHandler(failure('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    expect(written).toHaveLength(1);
    const [head, body] = written[0].split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
    expect(written[0]).not.toContain(MARKER);
    expect(destroyed).toHaveLength(1);
  });

  it('writes nothing to a reset or destroyed connection', () => {
    const reset = fakeSocket();
    clientErrorHandler(failure('ECONNRESET'), reset.socket);
    expect(reset.written).toEqual([]);
  });
});
