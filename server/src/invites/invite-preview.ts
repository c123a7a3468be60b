import { eq } from 'drizzle-orm';
import type { InvitePreview } from '../../../protocol/invites.js';
import type { Queryable } from '../db/database.js';
import { channels, users } from '../db/schema.js';
import { findLiveInvite } from './invite-store.js';

/** A person's name as an invite shows it: their own name, else "Someone" — never their e-mail. */
export function inviterName(person: { firstName: string | null; lastName: string | null }): string {
  const name = [person.firstName, person.lastName].filter((part) => part?.trim()).join(' ').trim();
  return name || 'Someone';
}

/**
 * What the holder of a live invite token sees before signing in: the channel's name and the name of
 * who made the link (decision 047). Null for a token that names no live invite.
 */
export async function previewInvite(db: Queryable, token: string): Promise<InvitePreview | null> {
  const invite = await findLiveInvite(db, token);
  if (!invite) return null;
  const [channel] = await db
    .select({ name: channels.name })
    .from(channels)
    .where(eq(channels.id, invite.channelId))
    .limit(1);
  const [maker] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, invite.createdBy))
    .limit(1);
  if (!channel || !maker) return null;
  return { channelName: channel.name, inviterName: inviterName(maker) };
}
