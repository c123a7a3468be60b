import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

// What a proxy's id may look like: enough for UUIDs, ULIDs and nginx's $request_id, nothing that
// could forge log fields or headers.
const ACCEPTABLE = /^[\w.:@-]{1,128}$/;

/**
 * Fastify options for request ids: a trusted reverse proxy's `X-Request-Id` is kept (so one id
 * follows the request through proxy and app logs), otherwise the server makes one. A client that
 * talks to the server directly cannot choose its id. Every log line of the request carries it.
 */
export function requestIdOptions(trustProxy: false | number | string) {
  return {
    requestIdHeader: false as const,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (request: IncomingMessage) => {
      const given = request.headers[REQUEST_ID_HEADER];
      if (trustProxy && typeof given === 'string' && ACCEPTABLE.test(given)) return given;
      return randomUUID();
    },
  };
}

/** Every response names its request id, for support and for correlating with the proxy's logs. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
}
