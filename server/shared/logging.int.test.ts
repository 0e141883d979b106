/**
 * No credential reaches the api's log: a request carrying a signal token in its URL and secrets
 * in its headers is logged by a Fastify server with our logger options, with them censored.
 */
import { Writable } from 'node:stream';
import { redactText, redactUrl, requestLogOptions } from './logging';
import Fastify from 'fastify';

/** A log destination that keeps every line written to it. */
function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

test('redactUrl censors credential parameters and keeps the rest', () => {
  expect(redactUrl('/v1/signal?token=eyJhbGciOi.abc.def')).toBe('/v1/signal?token=***');
  expect(redactUrl('/x?a=1&Token=s3cret&b=2')).toBe('/x?a=1&Token=***&b=2');
  expect(redactUrl('/p?oobCode=abc&mode=signIn')).toBe('/p?oobCode=***&mode=signIn');
  expect(redactUrl('/v1/catalog/titles?limit=20')).toBe('/v1/catalog/titles?limit=20');
  expect(redactUrl('/plain')).toBe('/plain');
});

test('a server logging with requestLogOptions writes no token, bearer or shared secret', async () => {
  const { lines, stream } = capture();
  const app = Fastify({ logger: { ...(requestLogOptions('info') as object), stream } });
  app.get('/v1/signal', async () => ({ status: 'ok' }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const secret = 'eyJhbGciOiJIUzI1NiJ9.SECRETPAYLOAD.SIGNATURE';
  const res = await fetch(`${base}/v1/signal?token=${secret}`, {
    headers: { authorization: 'Bearer BEARER-SECRET', 'x-host-secret': 'HOST-SECRET', 'x-internal-token': 'INTERNAL-SECRET' },
  });
  expect(res.status).toBe(200);
  await app.close();
  const log = lines.join('');
  expect(log).toContain('/v1/signal?token=***');
  for (const value of [secret, 'SECRETPAYLOAD', 'BEARER-SECRET', 'HOST-SECRET', 'INTERNAL-SECRET']) expect(log).not.toContain(value);
});

test('redactText cuts credentials out of free text: token query values, bearers, JWTs', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
  expect(redactText('ws://h/v1/signal?token=abc.def&x=1 closed')).toBe('ws://h/v1/signal?token=***&x=1 closed');
  expect(redactText('Authorization: Bearer abc-123_x.y')).toBe('Authorization: Bearer ***');
  expect(redactText(`bad token ${jwt} given`)).toBe('bad token *** given');
  expect(redactText('limit=20 and code words')).toBe('limit=20 and code words');
});

test('errors are logged with their credentials redacted (message, stack, cause)', async () => {
  const { lines, stream } = capture();
  const app = Fastify({ logger: { ...(requestLogOptions('info', { service: 'test' }) as object), stream } });
  app.get('/fail', async () => {
    throw new Error('upstream refused ws://h/v1/signal?token=SIGNALSECRET', { cause: new Error('Bearer BEARERSECRET rejected') });
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  expect((await fetch(`${base}/fail`)).status).toBe(500);
  await app.close();
  const log = lines.join('');
  expect(log).toContain('"service":"test"');
  expect(log).toContain('token=***');
  expect(log).toContain('Bearer ***');
  for (const value of ['SIGNALSECRET', 'BEARERSECRET']) expect(log).not.toContain(value);
});
