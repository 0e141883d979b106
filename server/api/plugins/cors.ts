import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface CorsPluginOptions {
  /** Exact origins of the web app (scheme://host:port), e.g. http://127.0.0.1:3000. */
  origins: string[];
}

/**
 * The browser calls the API from the web origin(s) only. Identity travels as a bearer header,
 * not a cookie, so credentials stay off and a foreign page gains nothing from a request.
 */
async function corsPlugin(app: FastifyInstance, options: CorsPluginOptions): Promise<void> {
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
