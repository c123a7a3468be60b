import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person, signInOwner } from '../testing/people.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/** The shared guards every request passes: origin, session, body type — decided on the matched route. */
describe.each(testDatabases())('request guards on $name', (database) => {
  let server: TestServer;
  let superadmin: Person, victim: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    victim = await signIn(server, 'Vic Tim', 'vic@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const tierOf = async (person: Person) => {
    const users = await body<User[]>(await superadmin.client.request('/api/users'));
    return users.find((u) => u.id === person.id)?.subscriptionTier;
  };
  /** A page on the same host but another port: same-site, not same-origin. */
  const sameSiteOrigin = () => {
    const url = new URL(server.baseUrl);
    url.port = String(Number(url.port) === 65535 ? 1 : Number(url.port) + 1);
    return url.origin;
  };

  it('refuses a cross-site form that reaches an API route through a percent-encoded path', async () => {
    const form = new URLSearchParams({ subscriptionTier: 'admin' });
    for (const path of [
      `/%61pi/users/${victim.id}/subscription`,
      `/api/users/${victim.id}/subscriptio%6E`,
    ]) {
      const response = await superadmin.client.request(path, {
        method: 'POST',
        body: form,
        headers: { origin: sameSiteOrigin(), 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(403);
    }
    expect(await tierOf(victim)).toBe('free');
  });

  it('reads only JSON bodies on the API, even from our own origin', async () => {
    const path = `/api/users/${victim.id}/subscription`;
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'subscriptionTier=admin'],
      ['text/plain', '{"subscriptionTier":"admin"}'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="subscriptionTier"\r\n\r\nadmin\r\n--x--',
      ],
    ];
    for (const [type, payload] of bodies) {
      const response = await superadmin.client.request(path, {
        method: 'POST',
        body: payload,
        headers: { 'content-type': type },
      });
      expect(response.status, type).toBe(415);
    }
    expect(await tierOf(victim)).toBe('free');
    const json = await superadmin.client.request(path, {
      method: 'POST',
      json: { subscriptionTier: 'member' },
    });
    expect(json.status).toBe(200);
    expect(await tierOf(victim)).toBe('member');
  });

  it('answers a guest 401 before looking at a bad body or parameter', async () => {
    const guest = new TestClient(server.baseUrl);
    const cases: [string, RequestInit & { json?: unknown }][] = [
      ['/api/channels', { method: 'POST', json: { name: '' } }],
      [
        '/api/channels',
        { method: 'POST', body: 'not json', headers: { 'content-type': 'application/json' } },
      ],
      ['/api/channels/abc/members', {}],
      ['/api/users/x/subscription', { method: 'POST', json: { subscriptionTier: 'gold' } }],
      ['/api/invite/generate', {}],
      [
        '/api/contacts',
        {
          method: 'POST',
          body: 'email=a',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
    ];
    for (const [path, init] of cases) {
      const response = await guest.request(path, init);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ message: 'Unauthorized' });
    }
  });

  it('answers 400, never 500, to control characters in names, path parameters, bodies and cookies', async () => {
    const nul = '\u0000';
    const requests: [string, RequestInit & { json?: unknown }][] = [
      ['/api/channels', { method: 'POST', json: { name: `Fam${nul}ily` } }],
      ['/api/channels', { method: 'POST', json: { name: 'Bell\u0007' } }],
      ['/api/users/%00/channels', {}],
      [`/api/users/a%00b/block`, { method: 'POST' }],
      [`/api/contacts/%00`, { method: 'DELETE' }],
      [`/api/channels/1/members/%00/poke`, { method: 'POST' }],
      ['/api/usage/session/end', { method: 'POST', json: { sessionId: `s${nul}` } }],
      ['/api/invite/accept', { method: 'POST', json: { token: `t${nul}` } }],
      ['/api/contacts', { method: 'POST', json: { email: `a${nul}@example.com` } }],
      [
        '/api/livekit-token',
        { method: 'POST', json: { channelId: 1, userId: superadmin.id, userName: `n${nul}` } },
      ],
      [`/api/channels?x=${encodeURIComponent(nul)}`, {}],
    ];
    for (const [path, init] of requests) {
      const response = await superadmin.client.request(path, init);
      expect(response.status, path).toBe(400);
    }
    const odd = new TestClient(server.baseUrl);
    for (const token of ['%00', 'abc%00def', '%01%02', 'x'.repeat(5000)]) {
      odd.cookies.set('chirp_session', token);
      const response = await odd.request('/api/auth/user');
      expect(response.status, token).toBe(401);
    }
  });
});
