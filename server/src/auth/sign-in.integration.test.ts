import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, signInBuiltIn } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('sign-in through the built-in provider on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('answers 401 {message:"Unauthorized"} when signed out', async () => {
    const response = await new TestClient(server.baseUrl).request('/api/auth/user');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthorized' });
  });

  it('creates the account on first sign-in, as a free user even when it is the first ever', async () => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Ada Lovelace', email: 'Ada@Example.com' });
    const response = await client.request('/api/auth/user');
    expect(response.status).toBe(200);
    const user = (await response.json()) as Record<string, unknown>;
    expect(user).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      subscriptionTier: 'free',
    });
    expect(typeof user.id).toBe('string');
  });

  it('makes later users free and keeps them apart', async () => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Bob', email: 'bob@example.com' });
    const user = (await (await client.request('/api/auth/user')).json()) as Record<string, unknown>;
    expect(user).toMatchObject({ email: 'bob@example.com', firstName: 'Bob', lastName: null, subscriptionTier: 'free' });
  });

  it('refuses a wrong password for an existing account', async () => {
    const client = new TestClient(server.baseUrl);
    const response = await signInBuiltIn(client, { name: '', email: 'bob@example.com', password: 'not the password' });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('Wrong email or password');
    expect((await client.request('/api/auth/user')).status).toBe(401);
  });

  it('signs an existing account in again with the same password, as the same user', async () => {
    const first = new TestClient(server.baseUrl);
    await signInBuiltIn(first, { name: 'Carol', email: 'carol@example.com' });
    const again = new TestClient(server.baseUrl);
    await signInBuiltIn(again, { name: 'ignored', email: 'carol@example.com' });
    const a = (await (await first.request('/api/auth/user')).json()) as { id: string };
    const b = (await (await again.request('/api/auth/user')).json()) as { id: string };
    expect(b.id).toBe(a.id);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and rotates it at every sign-in', async () => {
    const client = new TestClient(server.baseUrl);
    const { response: form, visited } = await client.follow('/api/login');
    expect(form.status).toBe(200);
    const posted = await client.request(visited.at(-1)!, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Dan', email: 'dan@example.com', password: 'correct horse battery' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    let response = await client.request(new URL(posted.headers.get('location')!, visited.at(-1)).href);
    while (!response.headers.getSetCookie().some((c) => c.startsWith('chirp_session=')) && response.headers.get('location')) {
      response = await client.request(new URL(response.headers.get('location')!, server.baseUrl).href);
    }
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('chirp_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const firstToken = client.cookies.get('chirp_session');
    await signInBuiltIn(client, { name: 'Dan', email: 'dan@example.com' });
    const secondToken = client.cookies.get('chirp_session');
    expect(secondToken).toBeDefined();
    expect(secondToken).not.toBe(firstToken);
    // The old session id no longer works.
    const stale = new TestClient(server.baseUrl);
    stale.cookies.set('chirp_session', firstToken!);
    expect((await stale.request('/api/auth/user')).status).toBe(401);
  });

  it('refuses a callback with a tampered state', async () => {
    const client = new TestClient(server.baseUrl);
    const { visited } = await client.follow('/api/login');
    const posted = await client.request(visited.at(-1)!, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Eve', email: 'eve@example.com', password: 'correct horse battery' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    let location = new URL(posted.headers.get('location')!, server.baseUrl);
    while (!location.pathname.startsWith('/api/callback')) {
      const next = await client.request(location.href);
      location = new URL(next.headers.get('location')!, server.baseUrl);
    }
    location.searchParams.set('state', 'tampered');
    const response = await client.request(location.href);
    expect(response.status).toBe(400);
    expect((await client.request('/api/auth/user')).status).toBe(401);
  });

  it('refuses a replayed callback', async () => {
    const client = new TestClient(server.baseUrl);
    const { visited } = await client.follow('/api/login');
    const posted = await client.request(visited.at(-1)!, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Fay', email: 'fay@example.com', password: 'correct horse battery' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    let location = new URL(posted.headers.get('location')!, server.baseUrl);
    while (!location.pathname.startsWith('/api/callback')) {
      const next = await client.request(location.href);
      location = new URL(next.headers.get('location')!, server.baseUrl);
    }
    const loginCookie = client.cookies.get('chirp_login')!;
    const first = await client.request(location.href);
    expect(first.status).toBe(302);
    // The attacker replays the same callback URL, even with the original login cookie.
    const replay = new TestClient(server.baseUrl);
    replay.cookies.set('chirp_login', loginCookie);
    const replayed = await replay.request(location.href);
    expect(replayed.status).toBe(400);
    expect(replay.cookies.has('chirp_session')).toBe(false);
  });

  it('returns to a same-origin path after sign-in and ignores foreign returnTo', async () => {
    const ok = new TestClient(server.baseUrl);
    const okFlow = await ok.follow('/api/login?returnTo=%2Fsettings');
    expect(okFlow.response.status).toBe(200);
    const formUrl = okFlow.visited.at(-1)!;
    const posted = await ok.request(formUrl, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Gus', email: 'gus@example.com', password: 'correct horse battery' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const done = await ok.follow(new URL(posted.headers.get('location')!, formUrl).href);
    expect(done.visited.at(-1)).toBe(`${server.baseUrl}/settings`);

    const evil = new TestClient(server.baseUrl);
    await signInBuiltIn(evil, { name: 'Gus', email: 'gus@example.com' });
    const again = await evil.follow('/api/login?returnTo=https%3A%2F%2Fevil.example');
    expect(again.visited.at(-1)).toBe(`${server.baseUrl}/`);
    for (const returnTo of ['/.//evil.example/x', '/..//evil.example/x', '/%2e%2e//evil.example']) {
      const flow = await evil.follow(`/api/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(flow.visited.at(-1), returnTo).toBe(`${server.baseUrl}/`);
    }
  });

  it('ends the session at logout and signs out of the provider too', async () => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Hal', email: 'hal@example.com' });
    expect((await client.request('/api/auth/user')).status).toBe(200);
    const logout = await client.request('/api/logout');
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toContain('/oidc/session/end');
    expect((await client.request('/api/auth/user')).status).toBe(401);
  });

  it('keeps the user signed in when another site navigates them to the logout address', async () => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Hex', email: 'hex@example.com' });
    for (const site of ['cross-site', 'same-site']) {
      const logout = await client.request('/api/logout', {
        headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate' },
      });
      expect(logout.status).toBe(303);
      expect(logout.headers.get('location')).toBe('/');
      expect((await client.request('/api/auth/user')).status, site).toBe(200);
    }
    // Our own Logout button (same-origin) and a typed address (none) still sign out.
    const own = await client.request('/api/logout', {
      headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' },
    });
    expect(own.status).toBe(302);
    expect((await client.request('/api/auth/user')).status).toBe(401);
  });

  it('refuses state-changing API requests from a foreign origin', async () => {
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Ivy', email: 'ivy@example.com' });
    const response = await client.request('/api/contacts', {
      method: 'POST',
      json: { email: 'ivy@example.com' },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await (await client.request('/api/contacts')).json()).toEqual([]);
  });

  it('reports health and readiness', async () => {
    const client = new TestClient(server.baseUrl);
    expect((await client.request('/healthz')).status).toBe(200);
    const ready = await client.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });
});

describe.each(testDatabases())('the sign-in entry limit on $name', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('rate-limits sign-in starts from one address, this machine included', async () => {
    const client = new TestClient(server.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await client.request('/api/login')).status);
    expect(statuses.slice(0, 60).every((status) => status === 302)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
