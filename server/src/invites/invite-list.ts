import { inArray } from 'drizzle-orm';
import type { ChannelInvite } from '../../../protocol/invites.js';
import { displayName } from '../../../protocol/user.js';
import type { Queryable } from '../db/database.js';
import { users } from '../db/schema.js';
import { liveInvitesOf } from './invite-store.js';

/** The channel's live invites as its admin sees them: who made each, when, until when. */
export async function channelInvites(db: Queryable, channelId: number): Promise<ChannelInvite[]> {
  const rows = await liveInvitesOf(db, channelId);
  const creatorIds = [...new Set(rows.map((row) => row.createdBy))];
  const creators = creatorIds.length
    ? await db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          subscriptionTier: users.subscriptionTier,
        })
        .from(users)
        .where(inArray(users.id, creatorIds))
    : [];
  const nameOf = new Map(creators.map((creator) => [creator.id, displayName(creator)]));
  return rows.map((row) => ({
    id: row.id,
    createdBy: { id: row.createdBy, name: nameOf.get(row.createdBy) ?? '' },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}
