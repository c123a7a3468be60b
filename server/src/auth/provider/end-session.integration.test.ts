import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../testing/people.js';
import { localAccounts, oidcPayloads } from '../../db/schema.js';
import { TestClient } from '../../testing/http-client.js';
import { testDatabases } from '../../testing/test-databases.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

describe.each(testDatabases())("the built-in provider's end-session endpoint on $name", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const providerSessions = async () =>
    (await server.database.db.select().from(oidcPayloads).where(eq(oidcPayloads.kind, 'Session'))).length;

  it('stores no provider session for visitors who have none, and sends them home', async () => {
    const home = new URL('/', server.baseUrl).href;
    const visitor = new TestClient(server.baseUrl);
    const queries = ['', `?post_logout_redirect_uri=${encodeURIComponent(home)}&client_id=chirp-web`, '?state=x'];
    const answers = [];
    for (const query of queries) answers.push(await visitor.request(`/oidc/session/end${query}`));
    answers.push(
      await new TestClient(server.baseUrl).request('/oidc/session/end', {
        method: 'POST',
        body: 'client_id=chirp-web',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(await providerSessions()).toBe(0);
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(home);
    }
  });

  it('does not bring back a provider session that has ended, for a cookie that still names it', async () => {
    const eve = await signIn(server, 'Eve Ended', 'eve@example.com');
    await server.database.db.delete(oidcPayloads).where(eq(oidcPayloads.kind, 'Session'));
    for (let i = 0; i < 3; i++) await eve.client.request('/oidc/session/end');
    expect(await providerSessions()).toBe(0);
  });

  it('still ends a signed-in provider session at logout, so the next person must sign in', async () => {
    const leaving = await signIn(server, 'Lena Leaving', 'lena@example.com');
    const [account] = await server.database.db.select().from(localAccounts).where(eq(localAccounts.email, 'lena@example.com'));
    const accountSessions = async () =>
      (await server.database.db.select().from(oidcPayloads).where(eq(oidcPayloads.kind, 'Session'))).filter(
        (row) => (row.payload as { accountId?: string }).accountId === account!.id,
      ).length;
    expect(await accountSessions()).toBe(1);
    // Logout → the provider's auto-submitted logout form → confirmed → home.
    const { response, visited } = await leaving.client.follow('/api/logout');
    const form = await response.text();
    const action = /action="([^"]+)"/.exec(form)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)?.[1];
    expect(visited.some((url) => url.includes('/oidc/session/end'))).toBe(true);
    expect(action && xsrf).toBeTruthy();
    const confirmed = await leaving.client.request(new URL(action!, server.baseUrl).href, {
      method: 'POST',
      body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(confirmed.status).toBe(303);
    expect(await accountSessions()).toBe(0);
    // Signing in again needs the form (and the password): no provider session carried it through.
    const again = await leaving.client.follow('/api/login');
    expect(await again.response.text()).toContain('Sign in');
  });
});
