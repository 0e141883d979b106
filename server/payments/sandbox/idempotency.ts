/**
 * Stripe's `Idempotency-Key` for the sandbox API: the first POST/DELETE with a key is run and its
 * response stored; a retry with the same key and the same parameters gets that response again
 * (header `Idempotent-Replayed: true`) without running anything, so a double click or a network
 * retry never charges twice. The same key with other parameters is refused (400
 * idempotency_error); a retry while the first is still running gets 409. 5xx answers are not
 * kept, so the request can be retried. Keys are forgotten after 24 hours (server.ts ticker).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from './db';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request owns an idempotency key whose response must be stored. */
    idempotencyKey?: string;
  }
}

const MAX_KEY_LENGTH = 255;

function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return createHash('sha256')
    .update(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

function idempotencyError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ error: { type: 'idempotency_error', code: 'idempotency_key_in_use', message } });
}

export function registerIdempotency(app: FastifyInstance, pool: Db): void {
  app.decorateRequest('idempotencyKey', undefined);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'DELETE') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > MAX_KEY_LENGTH) {
      return reply.code(400).send({ error: { type: 'invalid_request_error', code: 'idempotency_key_invalid', message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.` } });
    }
    const path = request.url.split('?')[0];
    const hash = requestHash(request);
    const inserted = await pool.query(
      `INSERT INTO idempotency_keys (key, method, path, request_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [key, request.method, path, hash],
    );
    if (inserted.rowCount === 1) {
      request.idempotencyKey = key;
      return;
    }
    const { rows } = await pool.query<{ method: string; path: string; request_hash: string; status_code: number | null; response: string | null }>(
      'SELECT method, path, request_hash, status_code, response FROM idempotency_keys WHERE key = $1',
      [key],
    );
    const previous = rows[0];
    if (!previous) return; // forgotten in between: run it
    if (previous.method !== request.method || previous.path !== path || previous.request_hash !== hash) {
      return idempotencyError(reply, 400, 'Keys for idempotent requests can only be used with the same parameters they were first used with.');
    }
    if (previous.status_code === null || previous.response === null) {
      return idempotencyError(reply, 409, 'A request with this Idempotency-Key is still being processed; retry later.');
    }
    return reply.code(previous.status_code).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(previous.response);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = undefined;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await pool.query('DELETE FROM idempotency_keys WHERE key = $1', [key]);
    } else {
      await pool.query('UPDATE idempotency_keys SET status_code = $2, response = $3 WHERE key = $1', [key, reply.statusCode, payload]);
    }
    return payload;
  });
}
