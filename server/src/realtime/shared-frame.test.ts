import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { SharedFrame } from './shared-frame.js';

const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('SharedFrame', () => {
  it('is one text frame a client reads as the message, whatever its length', async () => {
    // Each length form of the header: 7 bits, 16 bits, 64 bits.
    const messages = [10, 200, 70_000].map((size) => ({ type: 'x', text: 'é'.repeat(size) }));
    // Written straight to the upgraded connection, as a `/ws` socket writes a shared frame.
    server.once('connection', (_ws, request) => {
      for (const message of messages) request.socket.write(new SharedFrame(message).wire);
    });
    const { port } = server.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    const received = await new Promise<unknown[]>((resolve, reject) => {
      const got: unknown[] = [];
      client.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) reject(new Error('binary frame'));
        got.push(JSON.parse(data.toString('utf8')));
        if (got.length === messages.length) resolve(got);
      });
      client.on('error', reject);
    });
    client.close();
    expect(received).toEqual(messages);
  });
});
