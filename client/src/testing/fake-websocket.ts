import { vi } from 'vitest';
import { createChannelSocket, type ChannelSocket } from '../features/realtime/channel-socket';

/**
 * The browser WebSocket at the network edge, for unit tests without a DOM: the app's socket code
 * above it is real. Records what the app sends and lets a test play the server.
 */
export class FakeWebSocket {
  static readonly OPEN = 1;
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event?: { code: number }) => void) | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  serverOpens(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The server closes the socket with `code` (e.g. 4401: the session ended). */
  serverCloses(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  serverSends(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

/** A real `/ws` connection over fake sockets; `last()` is the socket currently in use. */
export function fakeChannelSocket(): { socket: ChannelSocket; last: () => FakeWebSocket } {
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal('window', { location: { protocol: 'http:', host: 'localhost' } });
  const sockets: FakeWebSocket[] = [];
  const socket = createChannelSocket(() => {
    const fake = new FakeWebSocket();
    sockets.push(fake);
    return fake as unknown as WebSocket;
  });
  return {
    socket,
    last: () => {
      const fake = sockets.at(-1);
      if (!fake) throw new Error('no socket opened yet');
      return fake;
    },
  };
}
