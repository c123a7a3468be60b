import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/database.js';
import { channelMembers, channels, users } from '../db/schema.js';

export type ChannelRow = typeof channels.$inferSelect;
export type MembershipRow = typeof channelMembers.$inferSelect;

export async function findChannel(db: Queryable, channelId: number): Promise<ChannelRow | null> {
  const [channel] = await db.select().from(channels).where(eq(channels.id, channelId)).limit(1);
  return channel ?? null;
}

export async function findMembership(
  db: Queryable,
  channelId: number,
  userId: string,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** Inserts the membership; false when the user already was a member (so callers can answer 409). */
export async function insertMembership(
  db: Queryable,
  channelId: number,
  userId: string,
  role: MembershipRow['role'] = 'member',
): Promise<boolean> {
  const inserted = await db
    .insert(channelMembers)
    .values({ channelId, userId, role })
    .onConflictDoNothing()
    .returning({ userId: channelMembers.userId });
  return inserted.length > 0;
}

export async function deleteMembership(
  db: Queryable,
  channelId: number,
  userId: string,
): Promise<boolean> {
  const deleted = await db
    .delete(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .returning({ userId: channelMembers.userId });
  return deleted.length > 0;
}

export async function setMuted(
  db: Queryable,
  channelId: number,
  userId: string,
  isMuted: boolean,
): Promise<boolean> {
  const updated = await db
    .update(channelMembers)
    .set({ isMuted })
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .returning({ userId: channelMembers.userId });
  return updated.length > 0;
}

export async function memberIdsOf(db: Queryable, channelId: number): Promise<string[]> {
  const rows = await db
    .select({ userId: channelMembers.userId })
    .from(channelMembers)
    .where(eq(channelMembers.channelId, channelId))
    .orderBy(asc(channelMembers.userId));
  return rows.map((row) => row.userId);
}

export async function mutedUserIds(db: Queryable, channelId: number): Promise<string[]> {
  const rows = await db
    .select({ userId: channelMembers.userId })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.isMuted, true)))
    .orderBy(asc(channelMembers.joinedAt), asc(channelMembers.userId));
  return rows.map((row) => row.userId);
}

/** Members with what their card needs: admins first ('admin' sorts before 'member'), then by joining. */
export async function memberRows(db: Queryable, channelId: number, onlyUserIds?: string[]) {
  const inChannel = eq(channelMembers.channelId, channelId);
  return db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      profileImageUrl: users.profileImageUrl,
      subscriptionTier: users.subscriptionTier,
      role: channelMembers.role,
      isMuted: channelMembers.isMuted,
    })
    .from(channelMembers)
    .innerJoin(users, eq(users.id, channelMembers.userId))
    .where(onlyUserIds ? and(inChannel, inArray(channelMembers.userId, onlyUserIds)) : inChannel)
    .orderBy(asc(channelMembers.role), asc(channelMembers.joinedAt), asc(users.id));
}
export type MemberRow = Awaited<ReturnType<typeof memberRows>>[number];
