import { createServer, type Server } from 'node:http';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/config.js';
import { parseEnv } from '../../config/env.js';
import { createLivekitProvider, livekitHttpUrl } from './livekit-provider.js';

/**
 * No LiveKit server can be installed here, so its RoomService HTTP API is played by a small fake that
 * records what our provider asks for and checks the SDK signed each request with our key.
 */
describe('LiveKit provider against a recorded RoomService', () => {
  const key = 'APIfake';
  const secret = 'a-livekit-secret-of-thirty-two-chars!!';
  const calls: { method: string; body: Record<string, unknown> }[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        void (async () => {
          const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
          const claims = await new TokenVerifier(key, secret).verify(token).catch(() => null);
          if (!claims?.video?.roomAdmin && !claims?.video?.roomCreate) {
            response.writeHead(401).end();
            return;
          }
          const method = (request.url ?? '').split('/').pop() ?? '';
          calls.push({ method, body: JSON.parse(raw || '{}') as Record<string, unknown> });
          const reply =
            method === 'ListParticipants'
              ? { participants: [{ identity: 'user-1-1700000000000-aa' }, { identity: 'user-10-1700000000000-bb' }, { identity: 'user-1-1700000000001-cc' }] }
              : {};
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = () =>
    createLivekitProvider(
      resolveConfig(parseEnv({ VOICE_PROVIDER: 'livekit', LIVEKIT_URL: url, LIVEKIT_API_KEY: key, LIVEKIT_API_SECRET: secret, DATA_DIR: '/tmp/chirp-lk' })),
    );

  it('maps the WebSocket URL to the HTTP API', () => {
    expect(livekitHttpUrl('wss://lk.example.com')).toBe('https://lk.example.com');
    expect(livekitHttpUrl('ws://127.0.0.1:7880')).toBe('http://127.0.0.1:7880');
  });

  it("admin mute revokes canPublish on every live participant of that user, and no one else's", async () => {
    calls.length = 0;
    await provider().setPublisherMuted(4, 'user-1', true);
    expect(calls.map((c) => c.method)).toEqual(['ListParticipants', 'UpdateParticipant', 'UpdateParticipant']);
    expect(calls[0]!.body).toMatchObject({ room: 'channel-4' });
    expect(calls.slice(1).map((c) => c.body.identity)).toEqual(['user-1-1700000000000-aa', 'user-1-1700000000001-cc']);
    // Protobuf JSON leaves out false values: an absent canPublish is a revoked one.
    const permission = calls[1]!.body.permission as { canPublish?: boolean; canSubscribe?: boolean };
    expect(calls[1]!.body.room).toBe('channel-4');
    expect(permission.canPublish ?? false).toBe(false);
    expect(permission.canSubscribe).toBe(true);

    calls.length = 0;
    await provider().setPublisherMuted(4, 'user-1', false);
    expect((calls[1]!.body.permission as { canPublish?: boolean }).canPublish).toBe(true);
  });

  it('removes a removed member and deletes a deleted channel', async () => {
    calls.length = 0;
    await provider().disconnectUser(4, 'user-10');
    await provider().closeRoom(4);
    expect(calls.map((c) => c.method)).toEqual(['ListParticipants', 'RemoveParticipant', 'DeleteRoom']);
    expect(calls[1]!.body).toMatchObject({ room: 'channel-4', identity: 'user-10-1700000000000-bb' });
    expect(calls[2]!.body).toMatchObject({ room: 'channel-4' });
  });
});
