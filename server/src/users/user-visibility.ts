import { sql, type SQL } from 'drizzle-orm';
import type { SessionUser } from '../auth/session-store.js';
import { channelMembers, contacts, users } from '../db/schema.js';

/** Who is looking: their id, and whether they are a superadmin (who sees every address). */
export type Viewer = Pick<SessionUser, 'id' | 'subscriptionTier'>;

/**
 * A user's e-mail as `viewer` may see it (decision record 014): their own, that of anyone who shares a
 * channel with them or is in their contacts, and everyone's for a superadmin; otherwise null. Names
 * stay visible to every signed-in user, so the Contacts list can offer everyone a call button.
 */
export function visibleEmail(viewer: Viewer): SQL<string | null> {
  if (viewer.subscriptionTier === 'superadmin') return sql<string | null>`${users.email}`;
  return sql<string | null>`case when ${users.id} = ${viewer.id}
    or exists (
      select 1 from ${channelMembers} mine
      join ${channelMembers} theirs on theirs.channel_id = mine.channel_id
      where mine.user_id = ${viewer.id} and theirs.user_id = ${users.id}
    )
    or exists (
      select 1 from ${contacts} c where c.owner_id = ${viewer.id} and c.contact_id = ${users.id}
    )
    then ${users.email} else null end`;
}

/** The public user view (spec §3) with the e-mail as `viewer` may see it. */
export function userViewFor(viewer: Viewer) {
  return {
    id: users.id,
    email: visibleEmail(viewer),
    firstName: users.firstName,
    lastName: users.lastName,
    profileImageUrl: users.profileImageUrl,
    subscriptionTier: users.subscriptionTier,
  };
}
