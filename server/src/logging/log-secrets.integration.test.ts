import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createChannel, signIn, signInOwner } from '../testing/people.js';
import { SESSION_COOKIE } from '../auth/session-store.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';

/** Signs up on the built-in provider like a browser, returning every URL the browser visited. */
async function signUp(
  client: TestClient,
  person: { name: string; email: string; password: string },
) {
  const { response: form, visited } = await client.follow('/api/login');
  const posted = await client.request(visited.at(-1)!, {
    method: 'POST',
    body: new URLSearchParams(person),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(await form.text()).toContain('Sign in');
  if (posted.status !== 303) return { status: posted.status, visited };
  const after = await client.follow(new URL(posted.headers.get('location')!, visited.at(-1)).href);
  return { status: after.response.status, visited: [...visited, ...after.visited] };
}

/**
 * The server's own log output, captured from the logger production uses, through a
 * run with sign-up and sign-in, invites, logout, a database error and floods of bad socket frames.
 * None of the secrets that passed through may appear in it.
 */
describe.each(testDatabases())('what the log never says, on $name', (database) => {
  let server: TestServer;
  const lines: string[] = [];
  const log = () => lines.join('');
  const setTierByOperator = async (userId: string, tier: 'admin') => {
    await runAdminCommand(server.database.db, ['set-tier', userId, tier], { print: () => undefined });
  };

  beforeAll(async () => {
    server = await startTestServer(
      await database.open(),
      { LOG_LEVEL: 'debug' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('keeps e-mails, password hashes, codes, states, ID tokens, invite tokens and cookies out', async () => {
    const secrets: string[] = [];
    const owner = await signInOwner(server, 'Olive Owner', 'olive.owner@example.com');
    secrets.push(owner.email, owner.client.cookies.get(SESSION_COOKIE)!);

    const carol = new TestClient(server.baseUrl);
    const signedUp = await signUp(carol, {
      name: 'Carol Caller',
      email: 'carol.caller@example.com',
      password: 'carols secret password',
    });
    const callback = new URL(signedUp.visited.find((url) => url.includes('/api/callback?'))!);
    secrets.push(
      'carol.caller@example.com',
      'carols secret password',
      carol.cookies.get(SESSION_COOKIE)!,
      callback.searchParams.get('code')!,
      callback.searchParams.get('state')!,
    );

    // An invite link, generated, opened and redeemed.
    const channelId = await createChannel(owner, 'Logged');
    const invite = (await (
      await owner.client.request(`/api/invite/generate?channelId=${channelId}`)
    ).json()) as {
      inviteUrl: string;
    };
    const token = new URL(invite.inviteUrl).searchParams.get('invite')!;
    secrets.push(token);
    await carol.request(`/?channel=${channelId}&invite=${encodeURIComponent(token)}`);
    // The page the link opens asks, signed out, which channel and who invited (decision 047).
    const preview = await new TestClient(server.baseUrl).request('/api/invite/preview', { method: 'POST', json: { token } });
    expect(preview.status).toBe(200);
    expect(
      (await carol.request('/api/invite/accept', { method: 'POST', json: { token } })).status,
    ).toBe(200);

    // Logout goes through the provider's end-session endpoint with the ID token as a hint.
    const { visited } = await carol.follow('/api/logout');
    const endSession = visited.find((url) => url.includes('id_token_hint='));
    expect(endSession).toBeDefined();
    secrets.push(new URL(endSession!).searchParams.get('id_token_hint')!);

    // A database error while creating an account: the failed INSERT carried the e-mail and hash.
    await server.database.db.execute(
      sql.raw('alter table local_accounts add constraint log_test_refuses check (false) not valid'),
    );
    try {
      const refused = await signUp(new TestClient(server.baseUrl), {
        name: 'Dora Doomed',
        email: 'dora.doomed@example.com',
        password: 'doras secret password',
      });
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      await server.database.db.execute(
        sql.raw('alter table local_accounts drop constraint log_test_refuses'),
      );
    }
    secrets.push('dora.doomed@example.com', 'doras secret password', '$argon2');
    expect(log()).toContain('local_accounts'); // the error was logged, with its SQL

    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(log(), `the log contains ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
  });

  it('keeps invite tokens and callback codes out when they ride inside a returnTo', async () => {
    const owner = await signIn(server, 'Rita Returner', 'rita.returner@example.com');
    await setTierByOperator(owner.id, 'admin');
    const channelId = await createChannel(owner, 'Nested');
    const invite = (await (await owner.client.request(`/api/invite/generate?channelId=${channelId}`)).json()) as {
      inviteUrl: string;
    };
    const link = new URL(invite.inviteUrl);
    const token = link.searchParams.get('invite')!;
    const before = lines.length;

    // Signed out, the invitee opens the link: the app sends them to sign in, returning to the link.
    const ivan = new TestClient(server.baseUrl);
    await signInBuiltIn(ivan, { name: 'Ivan Invitee', email: 'ivan.invitee@example.com' }, link.pathname + link.search);
    expect((await ivan.request('/api/auth/user')).status).toBe(200);
    // The same token as an invite path, and a callback URL (with its code) nested in a returnTo.
    const code = 'a-callback-code-that-must-not-be-logged';
    await new TestClient(server.baseUrl).request(`/api/login?returnTo=${encodeURIComponent(`/invite/${token}`)}`);
    await new TestClient(server.baseUrl).request(
      `/api/login?returnTo=${encodeURIComponent(`/api/callback?code=${code}&state=s`)}`,
    );

    const logged = lines.slice(before).join('');
    expect(logged).toContain('returnTo'); // the requests were logged, with their returnTo
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(code);
  });

  it('logs a flood of bad frames once per socket and once per address on /rtc, with counts', async () => {
    const flooder = await signIn(server, 'Flo Flooder', 'flo@example.com');
    const socket = await TestSocket.open(flooder.client);
    for (let i = 0; i < 30; i++) socket.send(`{not json ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await socket.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const dropped = lines.filter(
      (l) => l.includes('socket message dropped') || l.includes('dropped messages not logged'),
    );
    expect(dropped).toHaveLength(2);
    expect(dropped.at(-1)).toContain('"suppressed":29');

    for (let i = 0; i < 20; i++) {
      const rtc = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/rtc`);
      await new Promise((resolve) => rtc.once('open', resolve));
      const closed = new Promise((resolve) => rtc.once('close', resolve));
      rtc.send('garbage');
      await closed;
    }
    expect(lines.filter((l) => l.includes('malformed signalling message'))).toHaveLength(1);
  });
});
