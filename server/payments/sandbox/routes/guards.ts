/**
 * Guards shared by the sandbox's routes: the secret-key check of the /v1 API (constant-time,
 * Stripe's 401 answer) and the allow-list of web origins that may frame the hosted pages and
 * receive their postMessage results (and of the return URLs they may send the browser to).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { secretMatches } from '../../../shared/secret';
import type { SandboxConfig } from '../config';
import { invalidRequest } from '../errors';

/** onRequest hook: `Authorization: Bearer <PAYMENTS_SANDBOX_SECRET_KEY>` or 401. */
export function requireSecretKey(config: SandboxConfig) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const key = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (!secretMatches(key, config.secretKey)) {
      return reply.code(401).send({ error: { type: 'authentication_error', message: 'Invalid API Key provided.' } });
    }
  };
}

/** The origin if it is on the allow-list (PAYMENTS_SANDBOX_ALLOWED_ORIGINS); else a 400. */
export function checkOrigin(config: SandboxConfig, value: string): string {
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    throw invalidRequest('origin must be an http(s) origin such as http://127.0.0.1:3000.', 'origin');
  }
  if (origin !== value.replace(/\/$/, '') || !config.allowedOrigins.includes(origin)) {
    throw invalidRequest(`origin ${value} is not allowed (PAYMENTS_SANDBOX_ALLOWED_ORIGINS).`, 'origin');
  }
  return origin;
}

/** A return URL on an allowed origin, or null when none was given. */
export function checkReturnUrl(config: SandboxConfig, value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest('return_url must be an absolute URL.', 'return_url');
  }
  if (!config.allowedOrigins.includes(url.origin)) throw invalidRequest(`return_url must be on an allowed origin.`, 'return_url');
  return url.toString();
}
