import { and, asc, eq, gt, inArray, lt } from 'drizzle-orm';
import { INVITE_TTL_MS, MAX_LIVE_INVITES_PER_MEMBER } from '../../../protocol/invites.js';
import type { Database, Queryable } from '../db/database.js';
import { invites } from '../db/schema.js';
import { hashInviteToken, newInviteToken } from './invite-token.js';

export type InviteRow = typeof invites.$inferSelect;

/**
 * Creates an invite and returns its token; the token itself is never stored. A member keeps at most
 * MAX_LIVE_INVITES_PER_MEMBER live links per channel: the oldest ones beyond that stop working, so
 * minting never fills the table and never refuses a member who just wants a link.
 */
export async function createInvite(
  db: Database,
  channelId: number,
  createdBy: string,
  now = new Date(),
): Promise<string> {
  const token = newInviteToken();
  await db.transaction(async (tx) => {
    await tx.delete(invites).where(lt(invites.expiresAt, now));
    const live = await tx
      .select({ id: invites.id })
      .from(invites)
      .where(
        and(
          eq(invites.channelId, channelId),
          eq(invites.createdBy, createdBy),
          gt(invites.expiresAt, now),
        ),
      )
      .orderBy(asc(invites.createdAt), asc(invites.id));
    const surplus = live.slice(0, Math.max(0, live.length - (MAX_LIVE_INVITES_PER_MEMBER - 1)));
    if (surplus.length > 0)
      await tx.delete(invites).where(
        inArray(
          invites.id,
          surplus.map((row) => row.id),
        ),
      );
    await tx.insert(invites).values({
      tokenHash: hashInviteToken(token),
      channelId,
      createdBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    });
  });
  return token;
}

/** A valid, unexpired invite, or null. */
export async function findLiveInvite(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<InviteRow | null> {
  const [invite] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.tokenHash, hashInviteToken(token)), gt(invites.expiresAt, now)))
    .limit(1);
  return invite ?? null;
}

/** The channel of a valid, unexpired invite, or null. */
export async function findInviteChannel(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<number | null> {
  return (await findLiveInvite(db, token, now))?.channelId ?? null;
}

/** The channel's live invites, oldest first (for its admin). */
export async function liveInvitesOf(
  db: Queryable,
  channelId: number,
  now = new Date(),
): Promise<InviteRow[]> {
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.channelId, channelId), gt(invites.expiresAt, now)))
    .orderBy(asc(invites.createdAt), asc(invites.id));
}

export async function revokeInvite(
  db: Queryable,
  channelId: number,
  inviteId: number,
): Promise<boolean> {
  const deleted = await db
    .delete(invites)
    .where(and(eq(invites.channelId, channelId), eq(invites.id, inviteId)))
    .returning({ id: invites.id });
  return deleted.length > 0;
}

/** A member who leaves or is removed takes the links they minted with them. */
export async function revokeInvitesBy(
  db: Queryable,
  channelId: number,
  userId: string,
): Promise<void> {
  await db
    .delete(invites)
    .where(and(eq(invites.channelId, channelId), eq(invites.createdBy, userId)));
}

export async function deleteExpiredInvites(db: Queryable, now = new Date()): Promise<void> {
  await db.delete(invites).where(lt(invites.expiresAt, now));
}
