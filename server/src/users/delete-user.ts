import { and, count, eq, inArray, or } from 'drizzle-orm';
import { deleteProviderState, localAccountOf } from '../auth/provider/account-maintenance.js';
import type { Database } from '../db/database.js';
import { channelMembers, channels, localAccounts, users } from '../db/schema.js';

/** A channel that goes with its creator, and who else was in it (to tell them live). */
export interface CreatedChannel {
  id: number;
  name: string;
  memberIds: string[];
}

export interface DeletedUser {
  userId: string;
  /**
   * Channels the user created: deleted for everyone (a channel cannot outlive its admin, decision
   * 020); and their direct conversations, whoever started them (decision 039: a conversation is its
   * two people's).
   */
  createdChannels: CreatedChannel[];
  /** Channels the user was an ordinary member of. */
  memberOf: number[];
  /** Whether the built-in provider's account (e-mail and password) was deleted too. */
  localAccountDeleted: boolean;
}

/** What deleting the user would take with it, for a confirmation. */
export async function channelsGoingWith(db: Database, userId: string): Promise<{ id: number; name: string; members: number }[]> {
  return db
    .select({ id: channels.id, name: channels.name, members: count(channelMembers.userId) })
    .from(channels)
    .leftJoin(channelMembers, eq(channelMembers.channelId, channels.id))
    // Their direct conversations go too, but are nobody's channels to list (decision 039).
    .where(and(eq(channels.createdBy, userId), eq(channels.kind, 'group')))
    .groupBy(channels.id)
    .orderBy(channels.id);
}

/**
 * Deletes a user and everything that is theirs, in one transaction: sessions, memberships, channels
 * they created (with those channels' members and invites), contacts and blocks both ways, voice
 * preferences and member volumes both ways, usage,
 * calls, invites, and — for a built-in provider account — the account and its provider sessions.
 * Most of it follows from the schema's ON DELETE CASCADE; what does not is deleted here.
 */
export async function deleteUserAndData(db: Database, userId: string): Promise<DeletedUser | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) return null;
    const mine = tx.select({ id: channelMembers.channelId }).from(channelMembers).where(eq(channelMembers.userId, userId));
    const created = await tx
      .select({ id: channels.id, name: channels.name })
      .from(channels)
      .where(or(eq(channels.createdBy, userId), and(eq(channels.kind, 'direct'), inArray(channels.id, mine))));
    const createdIds = created.map((c) => c.id);
    const members = createdIds.length
      ? await tx
          .select({ channelId: channelMembers.channelId, userId: channelMembers.userId })
          .from(channelMembers)
          .where(inArray(channelMembers.channelId, createdIds))
      : [];
    const memberOf = (
      await tx.select({ channelId: channelMembers.channelId }).from(channelMembers).where(eq(channelMembers.userId, userId))
    )
      .map((m) => m.channelId)
      .filter((id) => !createdIds.includes(id));

    const account = await localAccountOf(tx, user);
    if (account) {
      await deleteProviderState(tx, account.id);
      await tx.delete(localAccounts).where(eq(localAccounts.id, account.id));
    }
    // Those started by the other person do not cascade with this user: deleted here.
    if (createdIds.length) await tx.delete(channels).where(inArray(channels.id, createdIds));
    await tx.delete(users).where(eq(users.id, userId));
    return {
      userId,
      createdChannels: created.map((c) => ({
        ...c,
        memberIds: members.filter((m) => m.channelId === c.id && m.userId !== userId).map((m) => m.userId),
      })),
      memberOf,
      localAccountDeleted: account !== undefined,
    };
  });
}
