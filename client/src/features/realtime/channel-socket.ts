import {
  WS_PATH,
  wsServerMessageSchema,
  type WsClientMessage,
  type WsServerMessage,
} from '../../../../protocol/sockets';
import { PROTOCOL_VERSION } from '../../../../protocol/version';
import { SocketConnection } from './socket-connection';
import { reportVisibility } from './visibility-report';

/** What the client may send on `/ws` and what the server pushes: the protocol's unions. */
export type ClientSocketMessage = WsClientMessage;
export type ServerSocketMessage = WsServerMessage;

export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${WS_PATH}?v=${PROTOCOL_VERSION}`;
}

/** Parses one received message against the `/ws` server union; null when it matches none. */
export function parseServerSocketMessage(data: unknown): ServerSocketMessage | null {
  const parsed = wsServerMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export type ChannelSocket = SocketConnection<ClientSocketMessage, ServerSocketMessage>;

export function createChannelSocket(createSocket?: (url: string) => WebSocket): ChannelSocket {
  const socket: ChannelSocket = new SocketConnection({
    url: () => socketUrl(window.location),
    parse: parseServerSocketMessage,
    createSocket,
    network: () => (typeof window.addEventListener === 'function' ? window : undefined),
  });
  // The server pushes notifications only to devices whose page is not visible.
  if (typeof document !== 'undefined' && typeof document.addEventListener === 'function') {
    reportVisibility({
      send: (message) => socket.send(message),
      onState: (listener) => socket.onState(listener),
      page: document,
    });
  }
  return socket;
}

/**
 * The tab's one `/ws` connection, shared by presence and calls. The signed-in session opens it and
 * closes it on sign-out; guests never open it (spec §1).
 */
export const channelSocket: ChannelSocket = createChannelSocket();
