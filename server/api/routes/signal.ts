/**
 * GET /v1/signal?token=<signal JWT>: the signalling WebSocket of the webrtc provider
 * (docs/sessions.md 5; services/signalRelay.ts). The token is the credential: no ID token here
 * (browsers cannot set headers on a WebSocket). A plain HTTP GET answers 400.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';

/**
 * Open on purpose: a missing or bad token is refused on the socket (close 4401), where the
 * client can tell "refused" from "network".
 */
const SignalQuery = Type.Object({
  token: Type.Optional(Type.String()),
  /** The page's id (lib/streaming/signal.ts PEER_ID); anything else is ignored. */
  peer: Type.Optional(Type.String({ maxLength: 64 })),
});

const signalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    method: 'GET',
    url: '/v1/signal',
    schema: { querystring: SignalQuery, response: { ...errorResponses } },
    handler: async () => {
      throw new ApiError('invalid_request', 'WebSocket で接続してください。');
    },
    wsHandler: (socket, request) => {
      void app.signalRelay.accept(socket, request.query.token, request.query.peer).catch((error) => {
        request.log.error({ err: error }, 'signal connection failed');
        socket.close(1011, 'internal error');
      });
    },
  });
};

export default signalRoutes;
