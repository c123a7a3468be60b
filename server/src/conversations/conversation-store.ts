import { and, asc, eq, ne } from 'drizzle-orm';
import { DIRECT_CONVERSATION_NAME } from '../../../protocol/conversations.js';
import type { Database, Queryable } from '../db/database.js';
import { channelMembers, channels } from '../db/schema.js';
import { insertMembership, type ChannelRow } from '../memberships/membership-store.js';
import { directKeyOf } from './direct-key.js';

/**
 * The pair's conversation, made on first use: a walkie-talkie channel that keeps transmissions,
 * both people plain members (no admin), in one transaction. Two starts at once give one row: the
 * second insert waits on the unique key, does nothing, and reads the first one's row.
 */
export async function getOrCreateConversation(
  tx: Queryable,
  starterId: string,
  otherId: string,
): Promise<{ channel: ChannelRow; created: boolean }> {
  const directKey = directKeyOf(starterId, otherId);
  const [made] = await tx
    .insert(channels)
    .values({
      name: DIRECT_CONVERSATION_NAME,
      createdBy: starterId,
      talkMode: 'walkie',
      keepTransmissions: true,
      kind: 'direct',
      directKey,
    })
    .onConflictDoNothing({ target: channels.directKey })
    .returning();
  if (made) {
    await insertMembership(tx, made.id, starterId, 'member');
    await insertMembership(tx, made.id, otherId, 'member');
    return { channel: made, created: true };
  }
  const [existing] = await tx
    .select()
    .from(channels)
    .where(eq(channels.directKey, directKey))
    .limit(1);
  if (!existing) throw new Error('direct conversation neither inserted nor found');
  return { channel: existing, created: false };
}

/** The user's direct conversations with the other member of each, oldest first. */
export async function conversationsOf(
  db: Database,
  userId: string,
): Promise<{ channel: ChannelRow; otherId: string }[]> {
  const mine = db
    .select({ channelId: channelMembers.channelId })
    .from(channelMembers)
    .where(eq(channelMembers.userId, userId))
    .as('mine');
  const rows = await db
    .select({ channel: channels, otherId: channelMembers.userId })
    .from(channels)
    .innerJoin(mine, eq(mine.channelId, channels.id))
    .innerJoin(channelMembers, eq(channelMembers.channelId, channels.id))
    .where(and(eq(channels.kind, 'direct'), ne(channelMembers.userId, userId)))
    .orderBy(asc(channels.id));
  return rows;
}
