import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_CODES, type MemberUpdate } from '../../../protocol/sockets.js';
import { createChannel, setTier, signIn, signInOwner, type Person } from '../testing/people.js';
import { SESSION_COOKIE, sessionIdOf } from '../auth/session-store.js';
import { sessions } from '../db/schema.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { MAX_SOCKETS_PER_USER } from './socket-registry.js';
import { WS_USER_BUDGET } from './ws-route.js';

/** A session's end must reach open sockets within this. */
const WITHIN_MS = 1000;

type Close = { code: number; reason: string };

/** Resolves with the close, or rejects when the socket is still open after `ms`. */
async function closedWithin(close: Promise<Close> | TestSocket, ms: number): Promise<Close> {
  const closing = close instanceof TestSocket ? close.closed() : close;
  const closed = await Promise.race([
    closing,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
  ]);
  if (!closed) throw new Error(`socket still open after ${ms} ms`);
  return closed;
}

describe.each(testDatabases())('sockets follow their session on $name', (database) => {
  let server: TestServer;
  let owner: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    owner = await signInOwner(server, 'Olive Owner', 'olive@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('closes the open /ws and /ws/webrtc sockets of a session within a second of logout, and only those', async () => {
    const leaving = await signIn(server, 'Lou Leaving', 'lou@example.com');
    // The same person on a second device keeps their sockets.
    const phone = await signIn(server, 'Lou Leaving', 'lou@example.com');
    const ws = await TestSocket.open(leaving.client);
    const webrtc = await TestSocket.open(leaving.client, { path: '/ws/webrtc' });
    const other = await TestSocket.open(phone.client);
    const closes = [ws.closed(), webrtc.closed()];
    const token = leaving.client.cookies.get(SESSION_COOKIE)!;
    const logout = await leaving.client.request('/api/logout');
    expect(logout.status).toBe(302);
    for (const close of closes) {
      expect(await closedWithin(close, WITHIN_MS)).toMatchObject({
        code: WS_CLOSE_CODES.unauthorized,
        reason: 'Session ended',
      });
    }
    other.send({ type: 'leave_channel', channelId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(other.ws.readyState).toBe(other.ws.OPEN);
    await other.close();
    // The ended session's cookie, sent again (a stale tab, a copied cookie), opens nothing.
    leaving.client.cookies.set(SESSION_COOKIE, token);
    await expect(TestSocket.open(leaving.client)).rejects.toThrow('upgrade refused: 401');
  });

  it('closes the sockets of a session when it expires', async () => {
    const expiring = await signIn(server, 'Exa Expiring', 'exa@example.com');
    const token = expiring.client.cookies.get(SESSION_COOKIE)!;
    await server.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 2500) })
      .where(eq(sessions.idHash, sessionIdOf(token)));
    const socket = await TestSocket.open(expiring.client);
    expect(await closedWithin(socket, 2500 + WITHIN_MS)).toMatchObject({
      code: WS_CLOSE_CODES.unauthorized,
      reason: 'Session expired',
    });
    expect((await expiring.client.request('/api/auth/user')).status).toBe(401);
    // Nor does the expired session open a socket again.
    await expect(TestSocket.open(expiring.client)).rejects.toThrow('upgrade refused: 401');
  });

  it("tells a user's open app at once when their tier changed", async () => {
    const promoted = await signIn(server, 'Pia Promoted', 'pia@example.com');
    const socket = await TestSocket.open(promoted.client);
    await setTier(owner, promoted, 'admin');
    await socket.next((m) => m.type === 'account_changed', WITHIN_MS);
    await socket.close();
  });

  it(`refuses a user's socket past ${MAX_SOCKETS_PER_USER}, and takes one again once one closed`, async () => {
    const many = await signIn(server, 'Max Many', 'max.many@example.com');
    const open: TestSocket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) open.push(await TestSocket.open(many.client));
    const extra = await TestSocket.open(many.client);
    expect((await closedWithin(extra, WITHIN_MS)).code).toBe(WS_CLOSE_CODES.tooManySockets);
    // Someone else is not affected.
    const neighbour = await TestSocket.open(owner.client);
    await open.pop()!.close();
    const again = await TestSocket.open(many.client);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(again.ws.readyState).toBe(again.ws.OPEN);
    for (const socket of [...open, again, neighbour]) await socket.close();
  });

  it("holds a user's messages over all their sockets to one budget", async () => {
    const flooder = await signIn(server, 'Flo Flooder', 'flo@example.com');
    const channelId = await createChannel(owner, 'Budget');
    // Ten sockets, each well under its own limit (20 a second), together far over the user's.
    const devices: TestSocket[] = [];
    for (let i = 0; i < 10; i++) devices.push(await TestSocket.open(flooder.client));
    const closes = devices.map((d) => d.closed());
    for (let round = 0; round < 5; round++) {
      for (const device of devices) {
        for (let i = 0; i < 5; i++) device.send({ type: 'leave_channel', channelId });
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const sent = 10 * 5 * 5;
    expect(sent).toBeGreaterThan(WS_USER_BUDGET.points);
    const closed = await Promise.race([
      Promise.any(closes),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000)),
    ]);
    expect(closed?.code).toBe(WS_CLOSE_CODES.flooding);
    for (const device of devices) await device.close();
    // The owner, with their own budget, is unaffected.
    const calm = await TestSocket.open(owner.client);
    calm.send({ type: 'join_channel', channelId });
    await calm.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === owner.id);
    await calm.close();
  });
});
