import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import {
  addToChannel,
  body,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  type Person,
} from '../testing/people.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('users and tiers on $name', (database) => {
  let server: TestServer;
  let superadmin: Person, bea: Person, cal: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    bea = await signIn(server, 'Bea Bird', 'bea@example.com');
    cal = await signIn(server, 'Cal', 'cal@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const tierOf = async (person: Person) =>
    (await body<User>(await person.client.request('/api/auth/user'))).subscriptionTier;
  const change = (who: Person, target: Person | string, json: unknown) =>
    who.client.request(
      `/api/users/${typeof target === 'string' ? target : target.id}/subscription`,
      {
        method: 'POST',
        json,
      },
    );

  it('lists every user by name to signed-in users, e-mails only of people they know', async () => {
    const users = await body<User[]>(await cal.client.request('/api/users'));
    expect(users).toEqual([
      {
        id: superadmin.id,
        email: null,
        firstName: 'Sue',
        lastName: 'Super',
        profileImageUrl: null,
        subscriptionTier: 'superadmin',
      },
      expect.objectContaining({ id: bea.id, email: null, firstName: 'Bea', lastName: 'Bird' }),
      expect.objectContaining({ id: cal.id, email: 'cal@example.com', firstName: 'Cal', lastName: null }),
    ]);
    expect((await new TestClient(server.baseUrl).request('/api/users')).status).toBe(401);
  });

  it('shows an e-mail once the caller shares a channel or has the person as a contact', async () => {
    const emailsSeenBy = async (person: Person) =>
      Object.fromEntries(
        (await body<User[]>(await person.client.request('/api/users'))).map((u) => [u.id, u.email]),
      );
    // The superadmin sees every address.
    expect(Object.values(await emailsSeenBy(superadmin))).toEqual(['sue@example.com', 'bea@example.com', 'cal@example.com']);
    await setTier(superadmin, bea, 'admin');
    const channel = await createChannel(bea, 'Book club');
    await addToChannel(bea, channel, cal);
    expect((await emailsSeenBy(cal))[bea.id]).toBe('bea@example.com');
    expect((await emailsSeenBy(bea))[cal.id]).toBe('cal@example.com');
    expect((await emailsSeenBy(cal))[superadmin.id]).toBeNull();
    // Adding a contact needs the address already, and then shows it.
    await cal.client.request('/api/contacts', { method: 'POST', json: { email: 'sue@example.com' } });
    expect((await emailsSeenBy(cal))[superadmin.id]).toBe('sue@example.com');
    // Blocking someone you do not know reveals nothing either.
    const dee = await signIn(server, 'Dee Dot', 'dee@example.com');
    const blocked = await body<User>(await dee.client.request(`/api/users/${bea.id}/block`, { method: 'POST' }));
    expect(blocked.email).toBeNull();
    expect((await body<User[]>(await dee.client.request('/api/blocked-users')))[0]!.email).toBeNull();
    await setTier(superadmin, bea, 'free');
  });

  it('lets a superadmin change tiers among free, member and admin', async () => {
    for (const tier of ['member', 'admin', 'free'] as const) {
      const response = await change(superadmin, bea, { subscriptionTier: tier });
      expect(response.status).toBe(200);
      expect(await body<User>(response)).toMatchObject({ id: bea.id, subscriptionTier: tier });
      expect(await tierOf(bea)).toBe(tier);
    }
  });

  it('ignores a change to the same tier or of a superadmin (200, unchanged)', async () => {
    await setTier(superadmin, bea, 'member');
    const same = await change(superadmin, bea, { subscriptionTier: 'member' });
    expect(same.status).toBe(200);
    expect(await tierOf(bea)).toBe('member');
    const ofSuper = await change(superadmin, superadmin, { subscriptionTier: 'free' });
    expect(ofSuper.status).toBe(200);
    expect(await body<User>(ofSuper)).toMatchObject({ subscriptionTier: 'superadmin' });
    expect(await tierOf(superadmin)).toBe('superadmin');
  });

  it('refuses superadmin as a tier, bad bodies and unknown users, changing nothing', async () => {
    expect((await change(superadmin, bea, { subscriptionTier: 'superadmin' })).status).toBe(400);
    expect((await change(superadmin, bea, { subscriptionTier: 'gold' })).status).toBe(400);
    expect((await change(superadmin, bea, {})).status).toBe(400);
    expect((await change(superadmin, 'no-such-user', { subscriptionTier: 'admin' })).status).toBe(
      404,
    );
    expect(await tierOf(bea)).toBe('member');
  });

  it('lets nobody but a superadmin change tiers, not even an admin', async () => {
    await setTier(superadmin, bea, 'admin');
    expect((await change(bea, cal, { subscriptionTier: 'admin' })).status).toBe(403);
    expect((await change(cal, cal, { subscriptionTier: 'admin' })).status).toBe(403);
    expect(await tierOf(cal)).toBe('free');
  });
});
