import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PROTOCOL_VERSION } from '../../../protocol/version.js';
import { WS_MAX_MESSAGE_BYTES, WS_PATH } from '../../../protocol/sockets.js';
import { currentUser } from '../auth/require-user.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { isSameOrigin } from '../http/same-origin.js';
import { MessageRate } from './message-rate.js';
import type { ClientSocket } from './socket-hub.js';
import { rawBuffer } from './raw-data.js';
import { watchLiveness } from './socket-liveness.js';
import type { SocketRouter } from './socket-router.js';

export interface SocketLifecycle {
  opened(socket: ClientSocket): Promise<void>;
  closed(socket: ClientSocket): Promise<void>;
}

/**
 * `/ws`: signed-in users only (guests get no socket), same-origin pages only. Messages are JSON,
 * at most 16 KB, validated by the router's schemas and handled one at a time per socket.
 */
export function registerChannelSocketRoute(app: FastifyInstance, router: SocketRouter, lifecycle: SocketLifecycle): void {
  const alive = watchLiveness(app);

  const checkUpgrade = async (request: FastifyRequest) => {
    if (!isSameOrigin(request, app.ctx.config.publicUrl)) throw forbidden('Cross-origin socket refused');
    if (!(await currentUser(request))) throw unauthorized();
  };

  app.get(WS_PATH, { websocket: true, onRequest: checkUpgrade }, async (ws, request) => {
    const user = await currentUser(request);
    if (!user) return ws.close(4401, 'Unauthorized');
    const version = (request.query as { v?: string }).v;
    if (version !== undefined && version !== String(PROTOCOL_VERSION)) {
      return ws.close(4400, `Protocol version ${PROTOCOL_VERSION} required`);
    }
    const socket: ClientSocket = {
      id: randomUUID(),
      userId: user.id,
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      },
      close: (code, reason) => ws.close(code, reason),
    };
    const log = request.log.child({ socketId: socket.id, userId: user.id });
    const rate = new MessageRate();
    // Messages are handled in order, one at a time, so join → start_talking cannot race.
    let queue = lifecycle.opened(socket).catch((error: unknown) => log.error({ err: error }, 'socket open failed'));
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));

    ws.on('message', (data, isBinary) => {
      if (!rate.take()) {
        log.warn('socket flooding; closing it');
        ws.close(1008, 'Too many messages');
        return;
      }
      const buffer = rawBuffer(data);
      const size = buffer.byteLength;
      if (isBinary || size > WS_MAX_MESSAGE_BYTES) {
        log.warn({ size, isBinary }, 'socket message dropped: binary or oversized');
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(buffer.toString('utf8'));
      } catch {
        log.warn('socket message dropped: malformed JSON');
        return;
      }
      queue = queue
        .then(() => router.dispatch(socket, parsed))
        .then((dropped) => {
          if (dropped) log.warn({ reason: dropped }, 'socket message dropped');
        })
        .catch((error: unknown) => log.error({ err: error }, 'socket message failed'));
    });

    ws.on('close', () => {
      alive.delete(ws);
      queue = queue
        .then(() => lifecycle.closed(socket))
        .catch((error: unknown) => log.error({ err: error }, 'socket close failed'));
    });
  });
}
