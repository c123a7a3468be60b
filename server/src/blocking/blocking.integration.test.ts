import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person } from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('blocking on $name', (database) => {
  let server: TestServer;
  let ann: Person, bob: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ann = await signIn(server, 'Ann A', 'ann@example.com');
    bob = await signIn(server, 'Bob B', 'bob@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const blockedBy = async (person: Person) =>
    (await body<User[]>(await person.client.request('/api/blocked-users'))).map((u) => u.id);
  const blockRequest = (person: Person, targetId: string, method: 'POST' | 'DELETE') =>
    person.client.request(`/api/users/${targetId}/block`, { method });

  it('blocks a user idempotently and lists them as user records', async () => {
    const response = await blockRequest(ann, bob.id, 'POST');
    expect(response.status).toBe(200);
    // Ann and Bob share nothing: Bob's address stays hidden from her (decision record 014).
    expect(await body<User>(response)).toMatchObject({ id: bob.id, firstName: 'Bob', email: null });
    expect((await blockRequest(ann, bob.id, 'POST')).status).toBe(200);
    const list = await body<User[]>(await ann.client.request('/api/blocked-users'));
    expect(list).toEqual([
      expect.objectContaining({ id: bob.id, firstName: 'Bob', lastName: 'B' }),
    ]);
    expect(await blockedBy(bob)).toEqual([]);
  });

  it('unblocks idempotently', async () => {
    expect((await blockRequest(ann, bob.id, 'DELETE')).status).toBe(200);
    expect(await blockedBy(ann)).toEqual([]);
    expect((await blockRequest(ann, bob.id, 'DELETE')).status).toBe(200);
  });

  it('refuses yourself (400) and unknown users (404)', async () => {
    expect((await blockRequest(ann, ann.id, 'POST')).status).toBe(400);
    expect((await blockRequest(ann, 'no-such-user', 'POST')).status).toBe(404);
    expect((await blockRequest(ann, 'no-such-user', 'DELETE')).status).toBe(404);
    expect(await blockedBy(ann)).toEqual([]);
  });
});
