import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { WS_CLOSE_CODES, WS_MAX_MESSAGE_BYTES } from '../../../protocol/sockets.js';
import { PROTOCOL_VERSION } from '../../../protocol/version.js';
import { currentUser } from '../auth/require-user.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { isSameOrigin } from '../http/same-origin.js';
import { TokenBucket } from '../limits/token-bucket.js';
import type { ClientSocket } from './client-socket.js';
import { rawBuffer } from './raw-data.js';
import { watchLiveness } from './socket-liveness.js';
import type { SocketRouter } from './socket-router.js';

export interface JsonSocketRoute<S> {
  path: string;
  /** Names the socket in log lines. */
  name: string;
  /** Per socket: past this the socket floods and is closed (1008). */
  rate: { perSecond: number; burst: number };
  router: SocketRouter<S>;
  /** Runs before any message of the socket is handled; what it returns is given to every handler. */
  opened(socket: ClientSocket): Promise<S>;
  /** Runs after the last message of the socket was handled. */
  closed(state: S): Promise<void>;
}

/**
 * A JSON socket of signed-in users (`/ws`, `/ws/webrtc`; DESIGN §3 "Requests and sockets"). The
 * upgrade needs a same-origin page and a session (403 / 401 otherwise). Each message is at most
 * 16 KB of JSON that its route's schema accepts, else it is logged and dropped; a socket that floods
 * is closed; messages are handled one at a time, in order; dead sockets are found by ping/pong.
 */
export function registerJsonSocket<S>(app: FastifyInstance, route: JsonSocketRoute<S>): void {
  const alive = watchLiveness(app);
  route.router.assertComplete();

  const checkUpgrade = async (request: FastifyRequest) => {
    if (!isSameOrigin(request, app.ctx.config.publicUrl))
      throw forbidden('Cross-origin socket refused');
    if (!(await currentUser(request))) throw unauthorized();
  };

  app.get(route.path, { websocket: true, onRequest: checkUpgrade }, async (ws, request) => {
    const user = await currentUser(request);
    if (!user) return ws.close(WS_CLOSE_CODES.unauthorized, 'Unauthorized');
    const version = (request.query as { v?: string }).v;
    if (version !== undefined && version !== String(PROTOCOL_VERSION)) {
      return ws.close(
        WS_CLOSE_CODES.unsupportedVersion,
        `Protocol version ${PROTOCOL_VERSION} required`,
      );
    }
    const socket = clientSocket(ws, user.id);
    const log = request.log.child({ socket: route.name, socketId: socket.id, userId: user.id });
    const rate = new TokenBucket(route.rate);
    let state: S | undefined;
    let closing = false;
    let queue: Promise<unknown> = route.opened(socket).then(
      (opened) => {
        state = opened;
      },
      (error: unknown) => {
        log.error({ err: error }, 'socket open failed');
        ws.close(1011, 'Server error');
      },
    );
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));

    const drop = (reason: string) => log.warn({ reason }, 'socket message dropped');
    ws.on('message', (data, isBinary) => {
      if (closing) return;
      if (!rate.take()) {
        closing = true;
        log.warn('socket flooding; closing it');
        ws.close(WS_CLOSE_CODES.flooding, 'Too many messages');
        return;
      }
      const buffer = rawBuffer(data);
      if (isBinary || buffer.byteLength > WS_MAX_MESSAGE_BYTES) return drop('binary or over 16 KB');
      let parsed: unknown;
      try {
        parsed = JSON.parse(buffer.toString('utf8'));
      } catch {
        return drop('malformed JSON');
      }
      queue = queue
        .then(async () => {
          if (state === undefined) return;
          const dropped = await route.router.dispatch(state, parsed);
          if (dropped) drop(dropped);
        })
        .catch((error: unknown) => log.error({ err: error }, 'socket message failed'));
    });

    ws.on('close', () => {
      closing = true;
      alive.delete(ws);
      queue = queue
        .then(() => (state === undefined ? undefined : route.closed(state)))
        .catch((error: unknown) => log.error({ err: error }, 'socket close failed'));
    });
  });
}

function clientSocket(ws: WebSocket, userId: string): ClientSocket {
  return {
    id: randomUUID(),
    userId,
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
    close: (code, reason) => ws.close(code, reason),
  };
}
