import { randomBytes } from 'node:crypto';
import { RoomServiceClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/config.js';
import { parseEnv } from '../../config/env.js';
import { TestClient, signInBuiltIn } from '../../testing/http-client.js';
import { claimServer } from '../../testing/owner.js';
import { testDatabases } from '../../testing/test-databases.js';
import { freePort, startTestServer, type TestServer } from '../../testing/test-server.js';
import type { Database } from '../../db/database.js';
import { createLivekitProvider } from './livekit-provider.js';
import { livekitConnectSources, livekitHttpUrl } from './livekit-rooms.js';

const livekitUrl = process.env.TEST_LIVEKIT_URL;
const apiKey = process.env.TEST_LIVEKIT_API_KEY ?? '';
const apiSecret = process.env.TEST_LIVEKIT_API_SECRET ?? '';

const providerFor = (url: string, prefix: string, secret = apiSecret) =>
  createLivekitProvider(
    resolveConfig(
      parseEnv({
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: url,
        LIVEKIT_API_KEY: apiKey || 'devkey',
        LIVEKIT_API_SECRET: secret || 'secret',
        LIVEKIT_ROOM_PREFIX: prefix,
        DATA_DIR: '/tmp/chirp-lk',
      }),
    ),
    // Nothing here reads the database: no participant is in these rooms.
    { db: undefined as unknown as Database, billing: false },
  );

describe('LiveKit URLs', () => {
  it('maps the WebSocket URL to the HTTP API and to exactly two CSP sources', () => {
    expect(livekitHttpUrl('wss://lk.example.com')).toBe('https://lk.example.com');
    expect(livekitHttpUrl('ws://127.0.0.1:7880')).toBe('http://127.0.0.1:7880');
    expect(livekitConnectSources('wss://lk.example.com/')).toEqual([
      'wss://lk.example.com',
      'https://lk.example.com',
    ]);
    expect(livekitConnectSources('ws://127.0.0.1:7880')).toEqual([
      'ws://127.0.0.1:7880',
      'http://127.0.0.1:7880',
    ]);
  });
});

/**
 * The provider against a real LiveKit server (the shared dev instance, in rooms of a random prefix).
 * Participants with audio need browsers: `e2e/livekit.spec.ts` and `e2e/voice.spec.ts` cover mute,
 * removal and deletion with people in the room; here, the calls themselves and their failures.
 */
describe.runIf(livekitUrl)('LiveKit provider against a real LiveKit server', () => {
  const prefix = `t${randomBytes(3).toString('hex')}-`;
  const rooms = () => new RoomServiceClient(livekitHttpUrl(livekitUrl!), apiKey, apiSecret);

  it('mute, removal and close of a room nobody is in succeed: there is nothing to stop', async () => {
    const provider = providerFor(livekitUrl!, prefix);
    await expect(provider.setPublisherMuted(41, 'u1', true)).resolves.toBeUndefined();
    await expect(provider.disconnectUser(41, 'u1')).resolves.toBeUndefined();
    await expect(provider.closeRoom(41)).resolves.toBeUndefined();
  });

  it("closes the channel's room under the deployment's prefix, and no other", async () => {
    const provider = providerFor(livekitUrl!, prefix);
    const service = rooms();
    await service.createRoom({ name: `${prefix}42`, emptyTimeout: 60 });
    await service.createRoom({ name: `other-${prefix}42`, emptyTimeout: 60 });
    expect(provider.roomName(42)).toBe(`${prefix}42`);
    await provider.closeRoom(42);
    const names = (await service.listRooms()).map((room) => room.name);
    expect(names).not.toContain(`${prefix}42`);
    expect(names).toContain(`other-${prefix}42`);
    await service.deleteRoom(`other-${prefix}42`);
  });

  it('rejects when LiveKit refuses our key', async () => {
    const provider = providerFor(
      livekitUrl!,
      prefix,
      'not-the-secret-not-the-secret-not-the-secret',
    );
    await expect(provider.setPublisherMuted(43, 'u1', true)).rejects.toThrow();
    await expect(provider.closeRoom(43)).rejects.toThrow();
  });

  it('rejects when LiveKit cannot be reached', async () => {
    const provider = providerFor(`ws://127.0.0.1:${await freePort()}`, prefix);
    await expect(provider.setPublisherMuted(44, 'u1', true)).rejects.toThrow();
    await expect(provider.disconnectUser(44, 'u1')).rejects.toThrow();
    await expect(provider.closeRoom(44)).rejects.toThrow();
  });
});

/**
 * What an admin sees when the voice server fails: the request fails with the reason, and nothing
 * changed. Against the real server the same requests succeed.
 */
describe.each(testDatabases())('admin changes with LiveKit down, on $name', (database) => {
  let up: TestServer | undefined;
  let down: TestServer;
  let owner: TestClient;
  let memberId: string;
  let channelId: number;
  const logs: string[] = [];

  beforeAll(async () => {
    const handle = await database.open();
    down = await startTestServer(handle, {
      VOICE_PROVIDER: 'livekit',
      LIVEKIT_URL: `ws://127.0.0.1:${await freePort()}`,
      LIVEKIT_API_KEY: 'devkey',
      LIVEKIT_API_SECRET: 'secret',
      SESSION_SECRET: 'one-secret-for-both-servers-0123456789abcdef',
    });
    down.app.log.error = (obj: unknown, msg?: string) => {
      logs.push(
        `${msg ?? ''} ${JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? `${v.message} / cause: ${String((v as Error & { cause?: unknown }).cause)}` : v))}`,
      );
    };
    owner = new TestClient(down.baseUrl);
    await signInBuiltIn(owner, { name: 'Ada Admin', email: 'ada@example.com' });
    await claimServer(down, owner);
    const member = new TestClient(down.baseUrl);
    await signInBuiltIn(member, { name: 'Mel Member', email: 'mel@example.com' });
    memberId = ((await (await member.request('/api/auth/user')).json()) as { id: string }).id;
    channelId = (
      (await (
        await owner.request('/api/channels', { method: 'POST', json: { name: 'Down' } })
      ).json()) as { id: number }
    ).id;
    await owner.request(`/api/channels/${channelId}/members`, {
      method: 'POST',
      json: { userId: memberId },
    });
    if (livekitUrl)
      up = await startTestServer(handle, {
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: livekitUrl,
        LIVEKIT_API_KEY: apiKey,
        LIVEKIT_API_SECRET: apiSecret,
        LIVEKIT_ROOM_PREFIX: `t${randomBytes(3).toString('hex')}-`,
        SESSION_SECRET: 'one-secret-for-both-servers-0123456789abcdef',
      });
  });
  afterAll(async () => {
    await up?.close();
    await down.close();
    await down.database.close();
  });

  const muted = async (client: TestClient) =>
    (
      (await (await client.request(`/api/muted-users/${channelId}`)).json()) as {
        mutedUsers: unknown[];
      }
    ).mutedUsers;

  it('mute, unmute, removal and deletion fail with the reason and change nothing', async () => {
    const mute = await owner.request(`/api/channels/${channelId}/members/${memberId}/mute`, {
      method: 'POST',
    });
    expect(mute.status).toBe(502);
    expect(await mute.json()).toEqual({
      message: 'Could not mute: the voice server did not respond - please try again',
    });
    expect(await muted(owner)).toEqual([]);
    expect(logs.join('\n')).toMatch(/Could not mute.*fetch failed/s);

    const remove = await owner.request(`/api/channels/${channelId}/members/${memberId}`, {
      method: 'DELETE',
    });
    expect(remove.status).toBe(502);
    expect(((await remove.json()) as { message: string }).message).toMatch(
      /^Could not remove the member/,
    );
    const members = (await (await owner.request(`/api/channels/${channelId}/members`)).json()) as {
      id: string;
    }[];
    expect(members.map((m) => m.id)).toContain(memberId);

    const deletion = await owner.request(`/api/channels/${channelId}`, { method: 'DELETE' });
    expect(deletion.status).toBe(502);
    expect(((await deletion.json()) as { message: string }).message).toMatch(
      /^Could not delete the channel/,
    );
    expect((await owner.request(`/api/channels/${channelId}/members`)).status).toBe(200);
  });

  it.runIf(livekitUrl)(
    'the same requests succeed against the real server (nobody is connected)',
    async () => {
      const client = new TestClient(up!.baseUrl);
      for (const [name, value] of owner.cookies) client.cookies.set(name, value);
      expect(
        (
          await client.request(`/api/channels/${channelId}/members/${memberId}/mute`, {
            method: 'POST',
          })
        ).status,
      ).toBe(200);
      expect(await muted(client)).toHaveLength(1);
      expect(
        (
          await client.request(`/api/channels/${channelId}/members/${memberId}/mute`, {
            method: 'DELETE',
          })
        ).status,
      ).toBe(200);
      expect(await muted(client)).toEqual([]);
    },
  );

  it("allows exactly the LiveKit server's origin in the page's connect-src", async () => {
    const csp =
      (await fetch(new URL('/api/auth/user', down.baseUrl))).headers.get(
        'content-security-policy',
      ) ?? '';
    const connectSrc = /connect-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    const livekit = new URL(down.config.voice.livekit.url!);
    expect(connectSrc).toEqual([
      "'self'",
      `ws://${down.config.publicUrl.host}`,
      `ws://${livekit.host}`,
      `http://${livekit.host}`,
    ]);
  });
});
