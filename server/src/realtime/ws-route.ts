import type { FastifyInstance } from 'fastify';
import {
  acceptCallSchema,
  declineCallSchema,
  endCallSchema,
  initiateCallSchema,
} from '../../../protocol/calls.js';
import {
  joinChannelSchema,
  leaveChannelSchema,
  startTalkingSchema,
  stopTalkingSchema,
  visibilitySchema,
  WS_PATH,
  wsClientMessageSchema,
} from '../../../protocol/sockets.js';
import { floorReleaseSchema, floorRequestSchema } from '../../../protocol/floor.js';
import type { ClientSocket } from './client-socket.js';
import { registerJsonSocket } from './json-socket.js';
import { SocketRouter } from './socket-router.js';

/** DESIGN §3 / decision 004: bursts of 40 messages, 20 a second sustained, per socket. */
export const WS_RATE = { perSecond: 20, burst: 40 };
/** decision 016: a user's sockets together get what one busy socket gets, whatever their number. */
export const WS_USER_BUDGET = { points: 100, duration: 5 };

/**
 * `/ws`: presence and call state. Every message a client may send (protocol/sockets.ts
 * `wsClientMessageSchema`) and who handles it, in one table. Handlers act for the socket's own
 * user, never for a user id the client names.
 */
export function registerWsRoute(app: FastifyInstance): void {
  const { presence, calls, floor } = app.ctx;
  const router = new SocketRouter<ClientSocket>(wsClientMessageSchema)
    .on(joinChannelSchema, async (socket, message) => {
      await presence.handle(socket, message);
      // A walkie-talkie channel's viewer learns who is talking as they arrive; one who stops
      // listening (OFFLINE, idle, a call) gives back the floor they held.
      if (presence.isJoined(socket, message.channelId))
        await floor.sendState(socket, message.channelId);
      if (!presence.isListening(socket, message.channelId))
        await floor.socketGone(socket, message.channelId);
    })
    .on(leaveChannelSchema, async (socket, message) => {
      await floor.socketGone(socket, message.channelId);
      await presence.handle(socket, message);
    })
    .on(startTalkingSchema, (socket, message) => presence.handle(socket, message))
    .on(stopTalkingSchema, (socket, message) => presence.handle(socket, message))
    .on(visibilitySchema, (socket, message) => presence.setVisible(socket, message.visible))
    .on(floorRequestSchema, async (socket, message) => {
      // Only someone who hears the channel may take its floor (and so keep others from talking).
      if (presence.isListening(socket, message.channelId))
        await floor.request(socket, message.channelId);
    })
    .on(floorReleaseSchema, (socket, message) => floor.release(socket, message.channelId))
    .on(initiateCallSchema, (socket, message) => calls.initiate(socket, message))
    .on(acceptCallSchema, (socket, message) => calls.accept(socket, message))
    .on(declineCallSchema, (socket, message) => calls.decline(socket, message))
    .on(endCallSchema, (socket, message) => calls.end(socket, message));

  registerJsonSocket(app, {
    path: WS_PATH,
    name: 'ws',
    rate: WS_RATE,
    userBudget: WS_USER_BUDGET,
    router,
    opened: async (socket) => {
      await presence.socketOpened(socket);
      // A call that rings for this user now rings here too (opened from its notification).
      await calls.socketOpened(socket);
      return socket;
    },
    // Presence first: a call ends on disconnect only if the user is then offline everywhere.
    closed: async (socket) => {
      await floor.socketGone(socket);
      await presence.socketClosed(socket);
      await calls.socketClosed(socket);
    },
  });
}
