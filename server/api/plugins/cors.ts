/**
 * CORS for the web app's origin(s) (@fastify/cors), and the one answer to an OPTIONS request
 * that is not a CORS preflight (no Origin or no Access-Control-Request-Method): 400
 * invalid_request in the error envelope, where @fastify/cors's strict preflight check answered
 * a plain-text 400 of its own.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

export interface CorsPluginOptions {
  /** Exact origins of the web app (scheme://host:port), e.g. http://127.0.0.1:3000. */
  origins: string[];
}

/**
 * The browser calls the API from the web origin(s) only. Identity travels as a bearer header,
 * not a cookie, so credentials stay off and a foreign page gains nothing from a request.
 */
async function corsPlugin(app: FastifyInstance, options: CorsPluginOptions): Promise<void> {
  // Added before @fastify/cors's own onRequest hook, so it runs first; the error handler
  // (plugins/errors.ts) turns the ApiError into the envelope.
  app.addHook('onRequest', async (request) => {
    if (request.method === 'OPTIONS' && (!request.headers.origin || !request.headers['access-control-request-method'])) {
      throw new ApiError('invalid_request');
    }
  });
  await app.register(cors, {
    origin: options.origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    credentials: false,
    // Browsers cap this (Chromium at 2 h); 10 min keeps preflights rare while config changes apply soon.
    maxAge: 600,
  });
}

export default fp(corsPlugin, { name: 'yumecast-cors', fastify: '5.x' });
