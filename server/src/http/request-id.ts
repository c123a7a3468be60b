import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

export const REQUEST_ID_HEADER = 'x-request-id';

/** The log field that carries a trusted proxy's own id for the request, beside ours. */
export const PROXY_REQUEST_ID_LOG_LABEL = 'proxyRequestId';

// What a proxy's id may look like: enough for UUIDs, ULIDs and nginx's $request_id (32 hex digits),
// nothing that could forge log fields or headers, and short.
const ACCEPTABLE = /^[\w.:@-]{1,64}$/;

/** A trusted proxy's id for this request, when it sent a well-formed one. */
function proxyRequestId(request: IncomingMessage, trustProxy: false | number | string): string | undefined {
  const given = request.headers[REQUEST_ID_HEADER];
  return trustProxy && typeof given === 'string' && ACCEPTABLE.test(given) ? given : undefined;
}

/**
 * Fastify options for request ids: the server always makes its own (a UUID), so no client — not
 * even one whose header a proxy passes through — can choose or repeat the id its requests are
 * logged and answered under. Behind TRUST_PROXY a well-formed `X-Request-Id` from the proxy is kept
 * as a separate log field (`proxyRequestId`), to find the request in the proxy's log. Every log line
 * of the request carries both.
 */
export function requestIdOptions(trustProxy: false | number | string) {
  return {
    requestIdHeader: false as const,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: () => randomUUID(),
    childLoggerFactory: ((logger, bindings, options, request) => {
      const fromProxy = proxyRequestId(request, trustProxy);
      return logger.child(fromProxy ? { ...bindings, [PROXY_REQUEST_ID_LOG_LABEL]: fromProxy } : bindings, options);
    }) satisfies ChildLoggerFactory,
  };
}

/** Every response names its request id, for support and for correlating with the proxy's logs. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
  });
}
