import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { Channel } from '../../../protocol/channels.js';
import type { ChannelTalkModeBody, ChannelTalkModeSettings } from '../../../protocol/talk-mode.js';
import { notFound } from '../http/errors.js';
import type { Database } from '../db/database.js';
import { channelMembers, channels } from '../db/schema.js';
import { insertMembership, memberIdsOf } from '../memberships/membership-store.js';

/**
 * Channel lists hold group channels only: a direct conversation is its two members' (decision 039)
 * and is listed by `GET /api/conversations` instead.
 */
async function selectChannels(db: Database, where?: SQL): Promise<Channel[]> {
  const groups = eq(channels.kind, 'group');
  const query = db
    .select({
      id: channels.id,
      name: channels.name,
      createdBy: channels.createdBy,
      memberCount: count(channelMembers.userId),
      talkMode: channels.talkMode,
      maxTransmissionSeconds: channels.maxTransmissionSeconds,
      keepTransmissions: channels.keepTransmissions,
      sos: channels.sos,
      sosSeconds: channels.sosSeconds,
    })
    .from(channels)
    .leftJoin(channelMembers, eq(channelMembers.channelId, channels.id));
  return query
    .where(where ? and(groups, where) : groups)
    .groupBy(channels.id)
    .orderBy(asc(channels.id));
}

export function listAllChannels(db: Database): Promise<Channel[]> {
  return selectChannels(db);
}

export function listChannelsOf(db: Database, userId: string): Promise<Channel[]> {
  const mine = db
    .select({ id: channelMembers.channelId })
    .from(channelMembers)
    .where(eq(channelMembers.userId, userId));
  return selectChannels(db, inArray(channels.id, mine));
}

/** The creator becomes the channel's admin member in the same transaction. */
export async function createChannel(
  db: Database,
  name: string,
  creatorId: string,
): Promise<Channel> {
  return db.transaction(async (tx) => {
    const [channel] = await tx.insert(channels).values({ name, createdBy: creatorId }).returning();
    await insertMembership(tx, channel!.id, creatorId, 'admin');
    return {
      id: channel!.id,
      name: channel!.name,
      createdBy: channel!.createdBy,
      memberCount: 1,
      talkMode: channel!.talkMode,
      maxTransmissionSeconds: channel!.maxTransmissionSeconds,
      keepTransmissions: channel!.keepTransmissions,
      sos: channel!.sos,
      sosSeconds: channel!.sosSeconds,
    };
  });
}

/**
 * Deletes the channel (memberships and invites cascade) and returns who was in it, for the event.
 * `beforeCommit` runs inside the transaction (the voice room is closed there), so a failure leaves
 * the channel as it was.
 */
export async function deleteChannel(
  db: Database,
  channelId: number,
  beforeCommit: () => Promise<void> = async () => undefined,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const memberIds = await memberIdsOf(tx, channelId);
    await tx.delete(channels).where(eq(channels.id, channelId));
    await beforeCommit();
    return memberIds;
  });
}

/** The channel's talk mode (and, when given, its maximum transmission time). */
export async function setTalkMode(
  db: Database,
  channelId: number,
  body: ChannelTalkModeBody,
): Promise<ChannelTalkModeSettings> {
  const [row] = await db
    .update(channels)
    .set({
      talkMode: body.talkMode,
      ...(body.maxTransmissionSeconds === undefined
        ? {}
        : { maxTransmissionSeconds: body.maxTransmissionSeconds }),
      ...(body.keepTransmissions === undefined
        ? {}
        : { keepTransmissions: body.keepTransmissions }),
    })
    .where(eq(channels.id, channelId))
    .returning({
      talkMode: channels.talkMode,
      maxTransmissionSeconds: channels.maxTransmissionSeconds,
      keepTransmissions: channels.keepTransmissions,
    });
  if (!row) throw notFound('Channel not found');
  return row;
}
