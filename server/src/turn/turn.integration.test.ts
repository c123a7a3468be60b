import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IceServer } from '../../../protocol/ice.js';
import { body, signIn, type Person } from '../testing/people.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { joinVoice } from '../testing/voice-join.js';

const SECRET = 'coturn-static-auth-secret-for-tests';
const TTL = 600;

/** What coturn does with a credential: recompute the HMAC of the username and check the expiry. */
function coturnAccepts(server: IceServer | undefined, userId: string): boolean {
  if (!server?.username || !server.credential) return false;
  const [expiry, who] = server.username.split(':');
  const expected = createHmac('sha1', SECRET).update(server.username).digest('base64');
  const secondsLeft = Number(expiry) - Date.now() / 1000;
  return who === userId && server.credential === expected && secondsLeft > TTL - 30 && secondsLeft <= TTL;
}

const isTurn = (server: IceServer) => [server.urls].flat().some((url) => url.startsWith('turn'));

describe('TURN credentials reach calls and the built-in SFU', () => {
  let server: TestServer;
  let ann: Person;
  let bob: Person;

  beforeAll(async () => {
    server = await startTestServer(await testDatabases()[0]!.open(), {
      TURN_SECRET: SECRET,
      TURN_URLS: 'turn:turn.example:3478?transport=udp,turns:turn.example:5349?transport=tcp',
      TURN_TTL: String(TTL),
    });
    ann = await signIn(server, 'Ann Caller', 'ann@example.com');
    bob = await signIn(server, 'Bob Callee', 'bob@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it("gives each caller their own time-limited TURN credential with the STUN servers, never cached", async () => {
    const response = await ann.client.request('/api/calls/ice-servers');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { iceServers } = await body<{ iceServers: IceServer[] }>(response);
    expect(iceServers[0]).toEqual({ urls: 'stun:stun.l.google.com:19302' });
    const turn = iceServers.find(isTurn);
    expect(turn?.urls).toEqual(['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349?transport=tcp']);
    expect(coturnAccepts(turn, ann.id)).toBe(true);

    const bobs = (await body<{ iceServers: IceServer[] }>(await bob.client.request('/api/calls/ice-servers'))).iceServers.find(isTurn);
    expect(coturnAccepts(bobs, bob.id)).toBe(true);
    expect(bobs?.credential).not.toBe(turn?.credential);
    expect((await new TestClient(server.baseUrl).request('/api/calls/ice-servers')).status).toBe(401);
  });

  it("hands the SFU's browsers their own TURN credential in `joined`", async () => {
    await runAdminCommand(server.database.db, ['grant-superadmin', ann.id], { print: () => undefined });
    const created = await ann.client.request('/api/channels', { method: 'POST', json: { name: 'Relayed' } });
    const { id: channelId } = await body<{ id: number }>(created);
    const client = await joinVoice(ann, channelId);
    try {
      const servers = client.joined?.iceServers ?? [];
      expect(servers.filter(isTurn)).toHaveLength(1);
      expect(coturnAccepts(servers.find(isTurn), ann.id)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
