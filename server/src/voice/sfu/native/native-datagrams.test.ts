import { describe, expect, it } from 'vitest';
import { DatagramBatch } from '../datagram-batch.js';
import { boundSocket, closeLoopbackSocketsAfterEach } from './testing/loopback-sockets.js';
import { nativeDatagrams, type NativeDatagrams } from './native-datagrams.js';

closeLoopbackSocketsAfterEach();

/** The addon the tests' setup built (`scripts/build-native.mjs --required`). */
function addon(): NativeDatagrams {
  const native = nativeDatagrams();
  // Without it the SFU silently pays ~2–2.5 µs more per forwarded packet: the build must not be lost.
  expect(native).toBeDefined();
  return native!;
}

describe('the built-in SFU’s native addon', () => {
  it('is built and loaded', () => {
    expect(Object.keys(addon()).sort()).toEqual([
      'armConsent',
      'buildDatagram',
      'closeForwarder',
      'consentAnswers',
      'createForwarder',
      'createProtector',
      'disarmConsent',
      'forwardPacket',
      'forwarderCodec',
      'forwarderKeys',
      'forwarderReport',
      'forwarderRoute',
      'protect',
      'resendLost',
      'sendDatagrams',
      'socketAddress',
      'startReceiving',
      'unwatchSocket',
      'watchSocket',
    ]);
  });

  it('sends a whole fan-out in one call, on each socket’s own descriptor', async () => {
    const native = addon();
    let calls = 0;
    const counted: NativeDatagrams = {
      ...native,
      sendDatagrams: (...args) => {
        calls++;
        return native.sendDatagrams(...args);
      },
    };
    const senders = await Promise.all([1, 2, 3].map(() => boundSocket()));
    const receiver = await boundSocket();
    const from: number[] = [];
    const arrived = new Promise<void>((resolve) =>
      receiver.on('message', (_message, info) => {
        from.push(info.port);
        if (from.length === 90) resolve();
      }),
    );
    const batch = new DatagramBatch(counted);
    const { port } = receiver.address();
    const address = batch.socketAddress('127.0.0.1', port);
    for (let i = 0; i < 90; i++)
      batch.add(senders[i % 3]!, Buffer.from([i]), port, '127.0.0.1', address);
    await arrived;
    expect(calls).toBe(1);
    // Each datagram left from the socket it was queued on (the listener's ICE pair).
    expect(new Set(from)).toEqual(new Set(senders.map((s) => s.address().port)));
  });

  it('makes addresses only of IP addresses and whole ports', () => {
    const native = addon();
    expect(native.socketAddress('127.0.0.1', 5000)).toHaveLength(16);
    expect(native.socketAddress('::1', 5000)).toHaveLength(28);
    for (const [host, port] of [
      ['localhost', 5000],
      ['127.0.0.1', 0],
      ['127.0.0.1', 65_536],
      ['127.0.0.1', 1.5],
      ['127.0.0.1', -1],
      ['127.0.0.1', Number.NaN],
      ['1'.repeat(200), 5000],
    ] as const)
      expect(native.socketAddress(host, port)).toBeNull();
  });

  it('refuses arguments that would read or write outside the given buffers, without crashing', () => {
    const native = addon();
    const protector = native.createProtector(
      Buffer.alloc(16),
      Buffer.alloc(14),
      Buffer.alloc(20),
      1,
    );
    const packet = Buffer.alloc(12 + 100 + 10);
    expect(() => native.protect(protector, packet, 12, 101, 0)).toThrow(RangeError);
    expect(() => native.protect(protector, packet, -1, 10, 0)).toThrow(RangeError);
    expect(() => native.protect(protector, packet, 12, 100, 2 ** 48)).toThrow(RangeError);
    expect(() => native.protect({} as never, packet, 12, 100, 0)).toThrow(TypeError);
    expect(() => native.protect(protector, 'x' as never, 12, 100, 0)).toThrow(TypeError);
    expect(() =>
      native.createProtector(Buffer.alloc(15), Buffer.alloc(14), Buffer.alloc(20), 1),
    ).toThrow(RangeError);

    const address = native.socketAddress('127.0.0.1', 9)!;
    const fds = new Int32Array(2);
    expect(() => native.sendDatagrams(fds, [address], [packet], 2)).toThrow(RangeError);
    expect(() => native.sendDatagrams(fds, [address], ['x' as never], 1)).toThrow(TypeError);
    expect(() => native.sendDatagrams([1] as never, [address], [packet], 1)).toThrow(TypeError);
    // A descriptor that is not a socket, or an address of the wrong size, is a datagram lost.
    expect(native.sendDatagrams(new Int32Array([-1]), [address], [packet], 1)).toBe(0);
    expect(native.sendDatagrams(new Int32Array([0]), [Buffer.alloc(3)], [packet], 1)).toBe(0);
  });

  it('refuses a fan-out’s wrong arguments, and anything but a forwarder for one, without crashing', () => {
    const native = addon();
    const forwarder = native.createForwarder(1, 0, 0, 500);
    const protector = native.createProtector(
      Buffer.alloc(16),
      Buffer.alloc(14),
      Buffer.alloc(20),
      1,
    );
    const payload = Buffer.alloc(100);
    const forward = (forwarders: unknown[], count: number, body: unknown = payload) =>
      native.forwardPacket(forwarders as never, count, 1, 2, 3, false, body as never, null, null);
    // A protector is an external too: it must not pass for a forwarder.
    expect(() => forward([protector], 1)).toThrow(TypeError);
    expect(() => forward([{}], 1)).toThrow(TypeError);
    expect(() => forward([forwarder], 2)).toThrow(RangeError);
    expect(() => forward([forwarder], 1, 'x')).toThrow(TypeError);
    expect(() => native.protect(forwarder as never, Buffer.alloc(122), 12, 100, 0)).toThrow(
      TypeError,
    );
    expect(() =>
      native.forwarderKeys(forwarder, Buffer.alloc(16), Buffer.alloc(13), Buffer.alloc(20)),
    ).toThrow(RangeError);
    expect(() => native.forwarderRoute(forwarder, 3, Buffer.alloc(5))).toThrow(RangeError);
    expect(() => native.forwarderCodec(forwarder, 128, false)).toThrow(RangeError);
    expect(() => native.forwarderReport(forwarder, new Uint32Array(4))).toThrow(TypeError);
    // Without keys or a route, nothing is built or sent.
    expect(forward([forwarder], 1)).toBe(0);
    expect(native.buildDatagram(forwarder, 1, 2, 3, false, payload, null, null)).toBeNull();
    native.forwarderKeys(forwarder, Buffer.alloc(16), Buffer.alloc(14), Buffer.alloc(20));
    expect(native.buildDatagram(forwarder, 1, 2, 3, false, payload, null, null)).toHaveLength(
      12 + 100 + 10,
    );
    // Closed: the keys are gone.
    native.closeForwarder(forwarder);
    expect(native.buildDatagram(forwarder, 1, 3, 963, false, payload, null, null)).toBeNull();
  });
});
