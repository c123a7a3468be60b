import { expect } from 'vitest';
import type { User } from '../../../protocol/user.js';
import { signInBuiltIn, TestClient } from './http-client.js';
import { claimServer } from './owner.js';
import type { TestServer } from './test-server.js';

/** A signed-in test user: their own cookie jar plus who they are. */
export interface Person {
  client: TestClient;
  id: string;
  email: string;
  name: string;
}

export async function signIn(server: TestServer, name: string, email: string): Promise<Person> {
  const client = new TestClient(server.baseUrl);
  await signInBuiltIn(client, { name, email });
  const response = await client.request('/api/auth/user');
  expect(response.status).toBe(200);
  const user = (await response.json()) as User;
  return { client, id: user.id, email: user.email!, name };
}

/** Signs in and claims the server with its setup code: this person becomes the superadmin. */
export async function signInOwner(server: TestServer, name: string, email: string): Promise<Person> {
  const person = await signIn(server, name, email);
  await claimServer(server, person.client);
  return person;
}

/** Tier changes go through the real endpoint, as the superadmin (see signInOwner). */
export async function setTier(
  superadmin: Person,
  person: Person,
  tier: 'free' | 'member' | 'admin',
): Promise<void> {
  const response = await superadmin.client.request(`/api/users/${person.id}/subscription`, {
    method: 'POST',
    json: { subscriptionTier: tier },
  });
  expect(response.status).toBe(200);
}

export async function createChannel(admin: Person, name: string): Promise<number> {
  const response = await admin.client.request('/api/channels', { method: 'POST', json: { name } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

export async function addToChannel(
  admin: Person,
  channelId: number,
  person: Person,
): Promise<void> {
  const response = await admin.client.request(`/api/channels/${channelId}/members`, {
    method: 'POST',
    json: { userId: person.id },
  });
  expect(response.status).toBe(201);
}

export async function body<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** `person` opens (or finds) their direct conversation with `other`; answers its channel id. */
export async function startConversation(person: Person, other: Pick<Person, 'id'>): Promise<number> {
  const response = await person.client.request('/api/conversations', {
    method: 'POST',
    json: { userId: other.id },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { channel: { id: number } }).channel.id;
}
