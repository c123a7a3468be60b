import { describe, expect, it } from 'vitest';
import { InProcessBus } from './bus.js';
import type { ClientSocket } from './client-socket.js';
import type { SharedFrame } from './shared-frame.js';
import { SocketHub } from './socket-hub.js';

function fakeSocket(id: string) {
  const frames: SharedFrame[] = [];
  const socket: ClientSocket = {
    id,
    userId: `user-${id}`,
    send: () => {
      throw new Error('fan-out sends shared frames');
    },
    sendShared: (frame) => frames.push(frame),
    close: () => undefined,
  };
  return { socket, frames };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SocketHub fan-out', () => {
  it('serialises a topic message once for all its sockets and runs the delivery hook once', async () => {
    const bus = new InProcessBus();
    const hub = new SocketHub(bus);
    const hooked: { message: unknown; sockets: string[] }[] = [];
    hub.onDeliver((message, sockets) => hooked.push({ message, sockets: sockets.map((s) => s.id) }));
    const viewers = ['a', 'b', 'c'].map(fakeSocket);
    for (const { socket } of viewers) await hub.join(socket, 'channel:1');
    const outsider = fakeSocket('d');
    await hub.join(outsider.socket, 'channel:2');

    const message = { type: 'member_update', channelId: 1, member: { id: 'x', isOnline: false } };
    await bus.publish('channel:1', message);
    await settle();

    expect(hooked).toEqual([{ message, sockets: ['a', 'b', 'c'] }]);
    const [first] = viewers[0]!.frames;
    for (const { frames } of viewers) expect(frames).toEqual([first]);
    // The very same frame object: its bytes were made once.
    expect(viewers.every(({ frames }) => frames[0] === first)).toBe(true);
    expect(JSON.parse(first!.data.toString('utf8'))).toEqual(message);
    expect(outsider.frames).toEqual([]);
    expect(hub.socketsOn('channel:1')).toBe(3);
  });
});
