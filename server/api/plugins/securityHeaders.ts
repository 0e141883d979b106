/**
 * The api's security headers, on every response (DESIGN: "security headers on every response";
 * the web's own are in next.config.ts, docs/security.md). The api answers JSON, screenshot images
 * and the signalling WebSocket's upgrade, never a page, so the headers say exactly that: no
 * sniffing a JSON body into something else, no framing, no referrer, and a policy under which a
 * response opened as a document runs and loads nothing. No Cross-Origin-Resource-Policy: the
 * web's origin shows the screenshot images.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

async function securityHeadersPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
