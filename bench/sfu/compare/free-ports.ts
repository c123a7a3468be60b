import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

/** A TCP port nothing listens on right now (the OS picks it). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A UDP port that is free for TCP too (LiveKit wants both kinds on its RTC ports). */
export async function freeUdpPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const socket = createSocket('udp4');
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => {
        const { port } = socket.address();
        socket.close(() => resolve(port));
      });
    });
    if (port < 60_000) return port;
  }
}

/** A random block of UDP ports below the ephemeral range (32768+), for a media server's range. */
export function udpPortRange(size: number): [number, number] {
  const start = 10_000 + Math.floor(Math.random() * (22_000 - size));
  return [start, start + size - 1];
}
