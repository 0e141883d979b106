import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';

/**
 * GET /v1/signal?token=<signal JWT>: the signalling WebSocket of the webrtc provider
 * (docs/sessions.md 5; services/signalRelay.ts). The token is the credential: no ID token here
 * (browsers cannot set headers on a WebSocket). A plain HTTP GET answers 400.
 */
export default async function signalRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: 'GET',
    url: '/v1/signal',
    schema: {
      // Open on purpose: a missing or bad token is refused on the socket (close 4401), where the
      // client can tell "refused" from "network".
      querystring: { type: 'object', properties: { token: { type: 'string' } } },
      response: { ...errorResponses },
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'WebSocket で接続してください。');
    },
    wsHandler: (socket, request) => {
      const { token } = request.query as { token?: string };
      void app.signalRelay.accept(socket, token).catch((error) => {
        request.log.error({ err: error }, 'signal connection failed');
        socket.close(1011, 'internal error');
      });
    },
  });
}
