import { randomUUID } from 'node:crypto';
import { eq, or, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Person } from './people.js';
import { startCall } from '../calls/call-store.js';
import type { Database } from '../db/database.js';
import {
  blocks,
  calls,
  channelMembers,
  channels,
  contacts,
  invites,
  localAccounts,
  oidcPayloads,
  pushSubscriptions,
  sessions,
  usageSessions,
  users,
} from '../db/schema.js';

const ok = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response;
};

/**
 * Gives `owner` one of everything a user can own, through the real endpoints where there is one:
 * a channel they created (with `other` in it), membership of `other`'s channel, an invite, contacts
 * and blocks both ways, an open usage session, a push subscription and a call. Both must be admin tier.
 */
export async function giveUserData(db: Database, owner: Person, other: Person): Promise<{ ownChannel: number; otherChannel: number }> {
  const create = async (who: Person, name: string) =>
    ((await (await ok(await who.client.request('/api/channels', { method: 'POST', json: { name } }))).json()) as { id: number }).id;
  const ownChannel = await create(owner, `${owner.name}'s channel`);
  const otherChannel = await create(other, `${other.name}'s channel`);
  await ok(await owner.client.request(`/api/channels/${ownChannel}/members`, { method: 'POST', json: { userId: other.id } }));
  await ok(await other.client.request(`/api/channels/${otherChannel}/members`, { method: 'POST', json: { userId: owner.id } }));
  await ok(await owner.client.request(`/api/invite/generate?channelId=${otherChannel}`));
  await ok(await owner.client.request('/api/contacts', { method: 'POST', json: { email: other.email } }));
  await ok(await other.client.request('/api/contacts', { method: 'POST', json: { email: owner.email } }));
  await ok(await owner.client.request(`/api/users/${other.id}/block`, { method: 'POST' }));
  await ok(await owner.client.request(`/api/users/${other.id}/block`, { method: 'DELETE' }));
  await ok(await other.client.request(`/api/users/${owner.id}/block`, { method: 'POST' }));
  await ok(await owner.client.request('/api/usage/session/start', { method: 'POST', json: { channelId: otherChannel } }));
  // A device with notifications on (its push service is never reached here).
  await ok(
    await owner.client.request('/api/push/subscribe', {
      method: 'POST',
      json: { endpoint: `https://push.example/${randomUUID()}`, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } },
    }),
  );
  // Calls start on the socket; the stored call is what deletion must remove.
  const id = randomUUID();
  expect(await startCall(db, { id, roomName: `call-${id}`, callerId: owner.id, receiverId: other.id })).toBe('created');
  return { ownChannel, otherChannel };
}

/** Every row in any table that still refers to the user (by id, or as the provider account). */
export async function rowsReferencing(db: Database, userId: string, accountId?: string): Promise<Record<string, number>> {
  const countOf = async (query: Promise<unknown[]>) => (await query).length;
  const counts: Record<string, number> = {
    users: await countOf(db.select().from(users).where(eq(users.id, userId))),
    sessions: await countOf(db.select().from(sessions).where(eq(sessions.userId, userId))),
    channels: await countOf(db.select().from(channels).where(eq(channels.createdBy, userId))),
    channelMembers: await countOf(db.select().from(channelMembers).where(eq(channelMembers.userId, userId))),
    contacts: await countOf(db.select().from(contacts).where(or(eq(contacts.ownerId, userId), eq(contacts.contactId, userId)))),
    blocks: await countOf(db.select().from(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)))),
    usageSessions: await countOf(db.select().from(usageSessions).where(eq(usageSessions.userId, userId))),
    calls: await countOf(db.select().from(calls).where(or(eq(calls.callerId, userId), eq(calls.receiverId, userId)))),
    invites: await countOf(db.select().from(invites).where(eq(invites.createdBy, userId))),
    pushSubscriptions: await countOf(db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId))),
  };
  if (accountId) {
    counts.localAccounts = await countOf(db.select().from(localAccounts).where(eq(localAccounts.id, accountId)));
    counts.oidcPayloads = await countOf(
      db.select().from(oidcPayloads).where(sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`),
    );
  }
  return counts;
}
