import { z } from 'zod';
import {
  callClientMessageSchema,
  callServerMessageSchema,
} from '../../../../protocol/calls';
import {
  WS_PATH,
  channelClientMessageSchema,
  channelServerMessageSchema,
} from '../../../../protocol/sockets';
import { PROTOCOL_VERSION } from '../../../../protocol/version';
import { SocketConnection } from './socket-connection';

/** Everything the client may send on `/ws`: channel presence and call messages (spec §7). */
export const clientSocketMessageSchema = z.discriminatedUnion('type', [
  ...channelClientMessageSchema.options,
  ...callClientMessageSchema.options,
]);
export type ClientSocketMessage = z.infer<typeof clientSocketMessageSchema>;

/** Everything the server pushes on `/ws`. */
export const serverSocketMessageSchema = z.discriminatedUnion('type', [
  ...channelServerMessageSchema.options,
  ...callServerMessageSchema.options,
]);
export type ServerSocketMessage = z.infer<typeof serverSocketMessageSchema>;

export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WS_PATH}?v=${PROTOCOL_VERSION}`;
}

export function parseServerSocketMessage(data: unknown): ServerSocketMessage | null {
  const parsed = serverSocketMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export type ChannelSocket = SocketConnection<ClientSocketMessage, ServerSocketMessage>;

export function createChannelSocket(createSocket?: (url: string) => WebSocket): ChannelSocket {
  return new SocketConnection({
    url: () => socketUrl(window.location),
    parse: parseServerSocketMessage,
    createSocket,
  });
}

/**
 * The tab's one `/ws` connection, shared by presence and calls. The signed-in session opens it and
 * closes it on sign-out; guests never open it (spec §1).
 */
export const channelSocket: ChannelSocket = createChannelSocket();
