import { and, eq, gt, lt } from 'drizzle-orm';
import { INVITE_TTL_MS } from '../../../protocol/invites.js';
import type { Database } from '../db/database.js';
import { invites } from '../db/schema.js';
import { hashInviteToken, newInviteToken } from './invite-token.js';

/** Creates an invite and returns its token; the token itself is never stored. */
export async function createInvite(
  db: Database,
  channelId: number,
  createdBy: string,
  now = new Date(),
): Promise<string> {
  const token = newInviteToken();
  // Expired invites are useless; clearing them here keeps the table small without a timer.
  await db.delete(invites).where(lt(invites.expiresAt, now));
  await db.insert(invites).values({
    tokenHash: hashInviteToken(token),
    channelId,
    createdBy,
    expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
  });
  return token;
}

/** The channel of a valid, unexpired invite, or null. */
export async function findInviteChannel(
  db: Database,
  token: string,
  now = new Date(),
): Promise<number | null> {
  const [invite] = await db
    .select({ channelId: invites.channelId })
    .from(invites)
    .where(and(eq(invites.tokenHash, hashInviteToken(token)), gt(invites.expiresAt, now)))
    .limit(1);
  return invite?.channelId ?? null;
}
