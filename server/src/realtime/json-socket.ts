import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { WS_CLOSE_CODES, WS_MAX_MESSAGE_BYTES } from '../../../protocol/sockets.js';
import { PROTOCOL_VERSION } from '../../../protocol/version.js';
import { currentSession } from '../auth/require-user.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { isSameOrigin } from '../http/same-origin.js';
import { TokenBucket } from '../limits/token-bucket.js';
import { LogThrottle } from '../logging/log-throttle.js';
import type { UserMessageBudget } from '../limits/user-message-limiter.js';
import { rawBuffer } from './raw-data.js';
import { watchLiveness } from './socket-liveness.js';
import type { SharedFrame } from './shared-frame.js';
import type { SessionSocket } from './socket-registry.js';
import type { SocketRouter } from './socket-router.js';
import { tickWrites } from './tick-writes.js';

const DROP_LOG_INTERVAL_MS = 60_000;

export interface JsonSocketRoute<S> {
  path: string;
  /** Names the socket in log lines. */
  name: string;
  /** Per socket: past this the socket floods and is closed (1008). */
  rate: { perSecond: number; burst: number };
  /** Per user over all their sockets of this route, on every instance: past it, likewise. */
  userBudget: UserMessageBudget;
  router: SocketRouter<S>;
  /** Runs before any message of the socket is handled; what it returns is given to every handler. */
  opened(socket: SessionSocket): Promise<S>;
  /** Runs after the last message of the socket was handled. */
  closed(state: S): Promise<void>;
}

/**
 * A JSON socket of signed-in users (`/ws`, `/ws/webrtc`; DESIGN §3 "Requests and sockets"). The
 * upgrade needs a same-origin page and a session (403 / 401 otherwise); a user holds at most
 * `MAX_SOCKETS_PER_USER` of them. Each message is at most 16 KB of JSON that its route's schema
 * accepts, else it is logged and dropped; a socket that floods, or whose user spends their budget
 * over all their sockets, is closed; messages are handled one at a time, in order; dead sockets are
 * found by ping/pong; the socket closes when its session ends (logout, expiry) anywhere.
 */
export function registerJsonSocket<S>(app: FastifyInstance, route: JsonSocketRoute<S>): void {
  const { sockets, userMessages } = app.ctx;
  const alive = watchLiveness(app);
  route.router.assertComplete();
  userMessages.define(route.name, route.userBudget);

  const checkUpgrade = async (request: FastifyRequest) => {
    if (!isSameOrigin(request, app.ctx.config.publicUrl))
      throw forbidden('Cross-origin socket refused');
    if (!(await currentSession(request))) throw unauthorized();
  };

  app.get(route.path, { websocket: true, onRequest: checkUpgrade }, async (ws, request) => {
    const endsBefore = sockets.mark();
    const session = await currentSession(request);
    if (!session) return ws.close(WS_CLOSE_CODES.unauthorized, 'Unauthorized');
    const version = (request.query as { v?: string }).v;
    if (version !== undefined && version !== String(PROTOCOL_VERSION)) {
      return ws.close(
        WS_CLOSE_CODES.unsupportedVersion,
        `Protocol version ${PROTOCOL_VERSION} required`,
      );
    }
    const socket = sessionSocket(ws, request.socket, route.name, session);
    const userId = session.user.id;
    const log = request.log.child({ socket: route.name, socketId: socket.id, userId });
    // Its session ended while it was being read: the end's close already went by.
    if (sockets.endedSince(endsBefore, socket))
      return ws.close(WS_CLOSE_CODES.unauthorized, 'Session ended');
    if (!sockets.add(socket)) {
      log.warn('too many sockets for one user; refused');
      return ws.close(WS_CLOSE_CODES.tooManySockets, 'Too many open sockets');
    }
    const rate = new TokenBucket(route.rate);
    let state: S | undefined;
    let closing = false;
    let flooded = false;
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

    // One line per socket per minute, however many bad frames it sends; the count says the rest.
    const throttle = new LogThrottle(DROP_LOG_INTERVAL_MS);
    const drop = (reason: string) => {
      const take = throttle.take('dropped');
      if (take.log) log.warn({ reason, suppressed: take.suppressed }, 'socket message dropped');
    };
    const flooding = (why: string) => {
      closing = true;
      flooded = true;
      log.warn(why);
      ws.close(WS_CLOSE_CODES.flooding, 'Too many messages');
    };
    ws.on('message', (data, isBinary) => {
      if (closing) return;
      if (!rate.take()) return flooding('socket flooding; closing it');
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
          if (state === undefined || flooded) return;
          if (!(await userMessages.take(route.name, userId))) {
            return flooding('user over their message budget across sockets; closing this one');
          }
          const dropped = await route.router.dispatch(state, parsed);
          if (dropped) drop(dropped);
        })
        .catch((error: unknown) => log.error({ err: error }, 'socket message failed'));
    });

    ws.on('close', () => {
      closing = true;
      alive.delete(ws);
      sockets.remove(socket);
      const unlogged = throttle.pending('dropped');
      if (unlogged) log.warn({ suppressed: unlogged }, 'socket closed; dropped messages not logged');
      queue = queue
        .then(() => (state === undefined ? undefined : route.closed(state)))
        .catch((error: unknown) => log.error({ err: error }, 'socket close failed'));
    });
  });
}

/**
 * `connection` is the TCP socket under `ws` (the upgraded request's): its writes are held to the end
 * of the tick, so a burst of pushes to this socket costs one system call.
 */
function sessionSocket(
  ws: WebSocket,
  connection: Socket,
  route: string,
  session: { user: { id: string }; sessionId: string; expiresAt: Date },
): SessionSocket {
  const holdWrites = tickWrites(connection);
  // A peer that vanished fails the write; later sends to it would only fail again until ws hears.
  const open = () => ws.readyState === ws.OPEN && connection.writable;
  const write = (data: string | Buffer) => {
    holdWrites();
    ws.send(data, { binary: false });
  };
  return {
    id: randomUUID(),
    userId: session.user.id,
    route,
    sessionId: session.sessionId,
    sessionExpiresAt: session.expiresAt.getTime(),
    send: (message) => {
      if (open()) write(JSON.stringify(message));
    },
    // The frame made once for every socket it reaches, written as it is: `ws` would build the same
    // header again for each socket. It keeps its place among `ws`'s own writes, which are made at
    // once too (no permessage-deflate is offered, so `ws` never holds a message back).
    sendShared: (frame: SharedFrame) => {
      if (!open()) return;
      holdWrites();
      connection.write(frame.wire);
    },
    close: (code, reason) => ws.close(code, reason),
  };
}
