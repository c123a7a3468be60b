import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person } from '../access/testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('contacts on $name', (database) => {
  let server: TestServer;
  let ann: Person, bob: Person, cy: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ann = await signIn(server, 'Ann A', 'ann@example.com');
    bob = await signIn(server, 'Bob B', 'bob@example.com');
    cy = await signIn(server, 'Cy C', 'cy@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const contactsOf = async (person: Person) =>
    (await body<User[]>(await person.client.request('/api/contacts'))).map((u) => u.id);
  const add = (person: Person, email: unknown) =>
    person.client.request('/api/contacts', { method: 'POST', json: { email } });

  it('adds a contact by e-mail, case and spaces aside, and lists it per user', async () => {
    const response = await add(ann, '  BOB@Example.com ');
    expect(response.status).toBe(201);
    expect(await body<User>(response)).toMatchObject({
      id: bob.id,
      email: 'bob@example.com',
      firstName: 'Bob',
    });
    expect(await contactsOf(ann)).toEqual([bob.id]);
    expect(await contactsOf(bob)).toEqual([]);
  });

  it('answers 409 for a contact already added, 404 for an unknown e-mail, 400 for yourself or a non-e-mail', async () => {
    expect((await add(ann, 'bob@example.com')).status).toBe(409);
    expect((await add(ann, 'nobody@example.com')).status).toBe(404);
    expect((await add(ann, 'ann@example.com')).status).toBe(400);
    expect((await add(ann, 'not-an-email')).status).toBe(400);
    expect((await add(ann, undefined)).status).toBe(400);
    expect(await contactsOf(ann)).toEqual([bob.id]);
  });

  it('removes only your own contacts', async () => {
    await add(cy, 'bob@example.com');
    expect((await ann.client.request(`/api/contacts/${cy.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    const removed = await ann.client.request(`/api/contacts/${bob.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await body<object>(removed)).toEqual({ message: 'Contact removed' });
    expect(await contactsOf(ann)).toEqual([]);
    expect(await contactsOf(cy)).toEqual([bob.id]);
    expect((await ann.client.request(`/api/contacts/${bob.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
  });
});
