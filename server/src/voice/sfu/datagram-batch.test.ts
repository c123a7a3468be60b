import dgram, { type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { DatagramBatch, sendsNatively } from './datagram-batch.js';
import { nativeDatagrams } from './native/native-datagrams.js';

const open: Socket[] = [];

async function boundSocket(type: 'udp4' | 'udp6' = 'udp4'): Promise<Socket> {
  const socket = dgram.createSocket(type);
  open.push(socket);
  await new Promise<void>((resolve) =>
    socket.bind(0, type === 'udp4' ? '127.0.0.1' : '::1', resolve),
  );
  return socket;
}

function collect(socket: Socket, count: number): Promise<string[]> {
  const got: string[] = [];
  return new Promise((resolve) => {
    socket.on('message', (message) => {
      got.push(message.toString());
      if (got.length === count) resolve(got);
    });
  });
}

afterEach(() => {
  for (const socket of open.splice(0)) {
    try {
      socket.close();
    } catch {
      // already closed by the test
    }
  }
});

describe('DatagramBatch (a fan-out’s datagrams, sent together)', () => {
  it('takes the native send path on the Node version the server runs on', async () => {
    // If a Node upgrade moved dgram's internals, forwarding would silently lose ~10 % per packet.
    expect(sendsNatively(await boundSocket())).toBe(true);
    expect(sendsNatively(dgram.createSocket('udp4'))).toBe(false); // not bound yet
  });

  it('leaves a connected socket to socket.send, without throwing when it refuses the address', async () => {
    const [connected, receiver] = await Promise.all([boundSocket(), boundSocket()]);
    await new Promise<void>((resolve) =>
      connected.connect(receiver.address().port, '127.0.0.1', resolve),
    );
    expect(sendsNatively(connected)).toBe(false);
    const batch = new DatagramBatch();
    batch.add(connected, Buffer.from('x'), receiver.address().port, '127.0.0.1');
    expect(() => batch.flush()).not.toThrow();
  });
});

/**
 * Each way a queued datagram leaves: through Node's UDP handle, and (with the SFU's addon built, as
 * `npm run build` and the tests' setup do) through the addon's `sendto` on the socket's descriptor.
 */
describe.each([
  { way: 'through Node’s UDP handle', native: false },
  { way: 'through the native addon', native: true },
])('DatagramBatch $way', ({ native }) => {
  const queue = (
    batch: DatagramBatch,
    socket: Socket,
    buffer: Buffer,
    port: number,
    host: string,
  ) => {
    const address = native ? batch.socketAddress(host, port) : undefined;
    // A valid destination always has a native form when the addon is there (the tests' setup built it).
    if (native && port > 0 && port < 0x1_0000 && Number.isInteger(port)) {
      expect(nativeDatagrams()).toBeDefined();
      expect(address).toBeDefined();
    }
    batch.add(socket, buffer, port, host, address);
  };

  it('delivers every queued datagram, in order, from several sockets, once the tick ends', async () => {
    const [a, b, receiver] = await Promise.all([boundSocket(), boundSocket(), boundSocket()]);
    const { port } = receiver.address();
    const arrived = collect(receiver, 6);
    const batch = new DatagramBatch();
    for (let i = 0; i < 6; i++)
      queue(batch, i % 2 ? b : a, Buffer.from(`packet ${i}`), port, '127.0.0.1');
    const received = await arrived;
    expect(received).toEqual([0, 1, 2, 3, 4, 5].map((i) => `packet ${i}`));
  });

  it('keeps the order when a flush is followed by more datagrams in the same tick', async () => {
    const [sender, receiver] = await Promise.all([boundSocket(), boundSocket()]);
    const arrived = collect(receiver, 2);
    const batch = new DatagramBatch();
    queue(batch, sender, Buffer.from('first'), receiver.address().port, '127.0.0.1');
    batch.flush(); // a second fan-out in the same tick starts a fresh batch
    queue(batch, sender, Buffer.from('second'), receiver.address().port, '127.0.0.1');
    expect(await arrived).toEqual(['first', 'second']);
  });

  it('skips a socket closed before the batch left, and still sends the others', async () => {
    const [closing, open1, receiver] = await Promise.all([
      boundSocket(),
      boundSocket(),
      boundSocket(),
    ]);
    const { port } = receiver.address();
    const arrived = collect(receiver, 1);
    const batch = new DatagramBatch();
    queue(batch, closing, Buffer.from('lost'), port, '127.0.0.1');
    queue(batch, open1, Buffer.from('kept'), port, '127.0.0.1');
    closing.close();
    expect(() => batch.flush()).not.toThrow();
    expect(await arrived).toEqual(['kept']);
  });

  it('turns away a bad port without taking the process down, and still sends the rest', async () => {
    const [sender, receiver] = await Promise.all([boundSocket(), boundSocket()]);
    const arrived = collect(receiver, 1);
    const batch = new DatagramBatch();
    for (const port of [0, -1, 70_000, 1.5, Number.NaN])
      queue(batch, sender, Buffer.from('bad'), port, '127.0.0.1');
    queue(batch, sender, Buffer.from('good'), receiver.address().port, '127.0.0.1');
    expect(() => batch.flush()).not.toThrow();
    expect(await arrived).toEqual(['good']);
  });

  it('sends to an IPv6 listener', async () => {
    const [sender, receiver] = await Promise.all([boundSocket('udp6'), boundSocket('udp6')]);
    const arrived = collect(receiver, 1);
    const batch = new DatagramBatch();
    queue(batch, sender, Buffer.from('over IPv6'), receiver.address().port, '::1');
    expect(await arrived).toEqual(['over IPv6']);
  });
});
