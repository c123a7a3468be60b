import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import { pushTapUrl, type PushPayload } from '../../../protocol/push.js';
import { displayName } from '../../../protocol/user.js';
import { blockRelationsOf } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import { channelMembers, channels, transmissions } from '../db/schema.js';
import type { KeptTransmission } from '../transmissions/keep-transmissions.js';
import { findUserById } from '../users/user-directory.js';
import type { PushNotifier } from './push-notifier.js';
import { clip, minutesSeconds, pushTag, pushTopic } from './push-texts.js';

/** How long a push service keeps a transmission's notification for a device that is off. */
const TRANSMISSION_TTL_SECONDS = 24 * 3600;

/**
 * Tells the channel's members who did not hear a kept transmission live: "<name> · <channel> · 0:04",
 * or "3 new from Family" once they have several unseen there, one notification per conversation
 * (tag `tx-<channelId>`). In a one-to-one conversation the speaker's name stands for the channel's.
 * Preference "transmissions", the member's Notify me there, and a block either way keeps it away
 * (as it keeps their voices apart, live and in replay).
 * Started without waiting: the notifier's `idle()` covers them.
 */
export function transmissionPushes(notifier: Pick<PushNotifier, 'start' | 'deliver'>, db: Database): (kept: KeptTransmission) => void {
  return (kept) => notifier.start(() => pushKept(notifier, db, kept), `transmission in ${kept.channelId}`);
}

async function pushKept(notifier: Pick<PushNotifier, 'deliver'>, db: Database, kept: KeptTransmission): Promise<void> {
  const { channelId, speakerId } = kept;
  const [row] = await db
    .select({ id: transmissions.id, name: channels.name, kind: channels.kind })
    .from(transmissions)
    .innerJoin(channels, eq(channels.id, transmissions.channelId))
    .where(and(eq(transmissions.channelId, channelId), eq(transmissions.speakerId, speakerId), eq(transmissions.startedAt, kept.startedAt)))
    .orderBy(asc(transmissions.id))
    .limit(1);
  const speaker = await findUserById(db, speakerId);
  if (!row || !speaker) return;
  const members = await db.select({ userId: channelMembers.userId }).from(channelMembers).where(eq(channelMembers.channelId, channelId));
  const recipients = members.map((m) => m.userId).filter((id) => id !== speakerId && !kept.heardBy.includes(id));
  const speakerName = displayName(speaker);
  const direct = row.kind === 'direct';
  const label = direct ? speakerName : row.name;
  const tag = pushTag('tx', channelId);
  await notifier.deliver(recipients, {
    key: `tx:${row.id}`,
    preference: 'transmissions',
    actorId: speakerId,
    blockedEitherWay: true,
    notifyChannelId: channelId,
    delivery: { ttlSeconds: TRANSMISSION_TTL_SECONDS, urgency: 'normal', topic: pushTopic(tag) },
    payload: async (recipientId): Promise<PushPayload> => {
      const unseen = await unseenIn(db, channelId, recipientId);
      if (unseen.length > 1) {
        return { kind: 'transmission', title: clip(`${unseen.length} new from ${label}`, 200), body: '', tag, url: pushTapUrl.transmission(channelId, unseen[0]!) };
      }
      const duration = minutesSeconds(kept.durationMs);
      // "<name> · <channel> · 0:04"; in a one-to-one conversation the name is said once.
      const title = direct ? `${speakerName} · ${duration}` : `${speakerName} · ${row.name} · ${duration}`;
      return { kind: 'transmission', title: clip(title, 200), body: '', tag, url: pushTapUrl.transmission(channelId, row.id) };
    },
  });
}

/**
 * The kept transmissions of the channel the member has not heard, oldest first: by someone else, not
 * heard live, after what they last saw (or their joining), and from nobody a block stands between.
 */
async function unseenIn(db: Database, channelId: number, userId: string): Promise<string[]> {
  const [member] = await db
    .select({ seenAt: channelMembers.transmissionsSeenAt, joinedAt: channelMembers.joinedAt })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .limit(1);
  if (!member) return [];
  const apart = new Set(await blockRelationsOf(db, userId));
  const rows = await db
    .select({ id: transmissions.id, speakerId: transmissions.speakerId })
    .from(transmissions)
    .where(
      and(
        eq(transmissions.channelId, channelId),
        ne(transmissions.speakerId, userId),
        gt(transmissions.startedAt, member.seenAt ?? member.joinedAt),
        sql`not (${userId} = any(${transmissions.heardBy}))`,
      ),
    )
    .orderBy(asc(transmissions.startedAt), asc(transmissions.id));
  return rows.filter((r) => !apart.has(r.speakerId)).map((r) => r.id);
}
