import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_ADD_MESSAGE, CONTACT_ADDS_PER_HOUR } from '../../../protocol/contacts.js';
import type { User } from '../../../protocol/user.js';
import { body, signIn, type Person } from '../testing/people.js';
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
    expect(response.status).toBe(200);
    expect(await body<object>(response)).toEqual({ message: CONTACT_ADD_MESSAGE });
    const listed = await body<User[]>(await ann.client.request('/api/contacts'));
    expect(listed).toMatchObject([{ id: bob.id, email: 'bob@example.com', firstName: 'Bob' }]);
    expect(await contactsOf(bob)).toEqual([]);
  });

  it('answers alike for a registered, an already added and an unknown address; 400 for yourself or a non-e-mail', async () => {
    const answers = [];
    for (const email of ['cy@example.com', 'bob@example.com', 'nobody@example.com']) {
      const response = await add(ann, email);
      answers.push({ status: response.status, body: await response.text() });
    }
    expect(answers).toEqual(Array(3).fill({ status: 200, body: JSON.stringify({ message: CONTACT_ADD_MESSAGE }) }));
    expect((await add(ann, 'ann@example.com')).status).toBe(400);
    expect((await add(ann, 'not-an-email')).status).toBe(400);
    expect((await add(ann, undefined)).status).toBe(400);
    expect(await contactsOf(ann)).toEqual([bob.id, cy.id]);
    await ann.client.request(`/api/contacts/${cy.id}`, { method: 'DELETE' });
  });

  it('limits how many addresses one person tries per hour', async () => {
    const prober = await signIn(server, 'Pat Prober', 'pat@example.com');
    const statuses: number[] = [];
    for (let i = 0; i <= CONTACT_ADDS_PER_HOUR; i++)
      statuses.push((await add(prober, `guess-${i}@example.com`)).status);
    expect(statuses).toEqual([...Array<number>(CONTACT_ADDS_PER_HOUR).fill(200), 429]);
    expect((await add(prober, 'bob@example.com')).status).toBe(429);
    expect(await contactsOf(prober)).toEqual([]);
    // Counted per person: someone else is not held up.
    expect((await add(cy, 'ann@example.com')).status).toBe(200);
    await cy.client.request(`/api/contacts/${ann.id}`, { method: 'DELETE' });
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
