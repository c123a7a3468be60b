import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData } from 'ws';
import {
  signalClientMessageSchema,
  WEBRTC_WS_PATH,
  type SignalClientMessage,
} from '../../../protocol/calls.js';
import { WS_MAX_MESSAGE_BYTES } from '../../../protocol/sockets.js';
import { currentUser } from '../auth/require-user.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { isSameOrigin } from '../http/same-origin.js';
import type { Bus } from '../realtime/bus.js';
import { MessageRate } from '../realtime/message-rate.js';
import { rawBuffer } from '../realtime/raw-data.js';
import { watchLiveness } from '../realtime/socket-liveness.js';
import { findCallByRoom } from './call-store.js';
import { SignalRoomMember } from './signal-room.js';

/**
 * `/ws/webrtc`: the peer-to-peer signalling of one-to-one calls. Same rules as `/ws` (session cookie,
 * same origin, 16 KB, no floods); a socket joins the room of a call it is a party of and relays offer,
 * answer and ICE candidates to the other party only, across instances through the bus.
 */
export function registerWebrtcSocketRoute(app: FastifyInstance, bus: Bus): void {
  const alive = watchLiveness(app);
  const checkUpgrade = async (request: FastifyRequest) => {
    if (!isSameOrigin(request, app.ctx.config.publicUrl))
      throw forbidden('Cross-origin socket refused');
    if (!(await currentUser(request))) throw unauthorized();
  };

  app.get(WEBRTC_WS_PATH, { websocket: true, onRequest: checkUpgrade }, async (ws, request) => {
    const user = await currentUser(request);
    if (!user) return ws.close(4401, 'Unauthorized');
    const log = request.log.child({ userId: user.id, socket: 'webrtc' });
    const member = new SignalRoomMember(bus, randomUUID(), user.id, {
      send: (message) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
      },
      close: (code, reason) => ws.close(code, reason),
    });
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    const rate = new MessageRate(50, 100);
    let queue: Promise<void> = Promise.resolve();

    ws.on('message', (data, isBinary) => {
      if (!rate.take()) {
        log.warn('signalling socket flooding; closing it');
        ws.close(1008, 'Too many messages');
        return;
      }
      const message = parse(data, isBinary);
      if (!message)
        return log.warn('signalling message dropped: binary, oversized, malformed or unknown');
      queue = queue
        .then(() => handle(message))
        .catch((error: unknown) => log.error({ err: error }, 'signalling message failed'));
    });
    ws.on('close', () => {
      alive.delete(ws);
      queue = queue
        .then(() => member.leave())
        .catch((error: unknown) => log.error({ err: error }, 'leave failed'));
    });

    async function handle(message: SignalClientMessage): Promise<void> {
      if (message.type !== 'join_room') return member.relay(message);
      const call = await findCallByRoom(app.ctx.database.db, message.roomName);
      const isCaller = call?.callerId === user!.id;
      const isParty = isCaller || call?.receiverId === user!.id;
      const open = call?.status === 'active' || (call?.status === 'ringing' && isCaller);
      if (!call || !isParty || !open) {
        log.info({ roomName: message.roomName }, 'join_room refused');
        ws.close(4403, 'Not a party of this call');
        return;
      }
      await member.join(message.roomName);
    }
  });
}

function parse(data: RawData, isBinary: boolean): SignalClientMessage | null {
  const buffer = rawBuffer(data);
  if (isBinary || buffer.byteLength > WS_MAX_MESSAGE_BYTES) return null;
  try {
    const parsed = signalClientMessageSchema.safeParse(JSON.parse(buffer.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
