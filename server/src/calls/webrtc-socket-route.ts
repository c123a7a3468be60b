import type { FastifyInstance } from 'fastify';
import {
  answerSchema,
  iceCandidateSchema,
  joinRoomSchema,
  offerSchema,
  signalClientMessageSchema,
  WEBRTC_WS_PATH,
} from '../../../protocol/calls.js';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import type { ClientSocket } from '../realtime/client-socket.js';
import { registerJsonSocket } from '../realtime/json-socket.js';
import { SocketRouter } from '../realtime/socket-router.js';
import { findCallByRoom } from './call-store.js';
import { SignalRoomMember } from './signal-room.js';

/** A negotiation trickles a few dozen candidates at once; more than this is not a browser. */
export const WEBRTC_RATE = { perSecond: 50, burst: 100 };
/** A call has two parties; a user's sockets together stay within a few negotiations' worth. */
export const WEBRTC_USER_BUDGET = { points: 300, duration: 5 };

interface SignalSocket {
  socket: ClientSocket;
  member: SignalRoomMember;
}

/**
 * `/ws/webrtc`: the peer-to-peer signalling of one-to-one calls, with the rules of every JSON socket
 * (`registerJsonSocket`). A socket joins the room of a call it is a party of — the caller while it
 * rings, both once active — and relays offer, answer and ICE candidates to the other party only,
 * across instances through the bus.
 */
export function registerWebrtcSocketRoute(app: FastifyInstance): void {
  const { bus, database } = app.ctx;

  const join = async ({ socket, member }: SignalSocket, roomName: string) => {
    const call = await findCallByRoom(database.db, roomName);
    const isCaller = call?.callerId === socket.userId;
    const isParty = isCaller || call?.receiverId === socket.userId;
    const open = call?.status === 'active' || (call?.status === 'ringing' && isCaller);
    if (!call || !isParty || !open) {
      app.log.info({ userId: socket.userId, roomName }, 'join_room refused');
      socket.close(WS_CLOSE_CODES.notAParty, 'Not a party of this call');
      return;
    }
    await member.join(roomName);
  };

  const router = new SocketRouter<SignalSocket>(signalClientMessageSchema)
    .on(joinRoomSchema, (signal, message) => join(signal, message.roomName))
    .on(offerSchema, ({ member }, message) => member.relay(message))
    .on(answerSchema, ({ member }, message) => member.relay(message))
    .on(iceCandidateSchema, ({ member }, message) => member.relay(message));

  registerJsonSocket(app, {
    path: WEBRTC_WS_PATH,
    name: 'webrtc',
    rate: WEBRTC_RATE,
    userBudget: WEBRTC_USER_BUDGET,
    router,
    opened: async (socket) => ({
      socket,
      member: new SignalRoomMember(bus, socket.id, socket.userId, socket),
    }),
    closed: ({ member }) => member.leave(),
  });
}
