import dgram, { type Socket } from 'node:dgram';
import { afterEach } from 'vitest';

const open: Socket[] = [];

/** A UDP socket bound to a free loopback port, closed after the test (`closeLoopbackSockets`). */
export async function boundSocket(): Promise<Socket> {
  const socket = dgram.createSocket('udp4');
  open.push(socket);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

/** Registers the clean-up: every socket `boundSocket` made is closed after each test. */
export function closeLoopbackSocketsAfterEach(): void {
  afterEach(() => {
    for (const socket of open.splice(0)) {
      try {
        socket.close();
      } catch {
        // closed by the test itself
      }
    }
  });
}
