import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelChanged, MemberUpdate, PokeMessage } from '../../../protocol/sockets.js';
import { displayName } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { channelTopic, userTopic, type Bus } from './bus.js';
import type { ChannelEvent, ChannelEvents } from './channel-events.js';

/**
 * Turns committed REST changes into socket pushes: the channel's viewers get member_update and
 * channel_changed, the user a change is about gets channel_changed on all their devices, and a poke
 * goes to its target's devices only.
 */
export function busChannelEvents(bus: Bus, db: Database, log: FastifyBaseLogger): ChannelEvents {
  return {
    publish(event) {
      deliverChannelEvent(bus, db, event).catch((error: unknown) =>
        log.error({ err: error, event: event.type }, 'channel event not delivered'),
      );
    },
  };
}

/** The muted member's own `channel_changed`: muted or not now, and the admin's id and name. */
async function withMuter(
  db: Database,
  message: ChannelChanged,
  event: Extract<ChannelEvent, { type: 'member_muted' }>,
): Promise<ChannelChanged> {
  const [admin] = await db.select().from(users).where(eq(users.id, event.by)).limit(1);
  return {
    ...message,
    muted: event.member.isMutedInChannel,
    ...(admin ? { by: { id: admin.id, name: displayName(admin) } } : {}),
  };
}

/** Sends one channel event's pushes; resolves once the bus took them (the admin command waits). */
export async function deliverChannelEvent(bus: Bus, db: Database, event: ChannelEvent): Promise<void> {
  const { channelId } = event;
  const changed = (change: ChannelChanged['change'], userId?: string): ChannelChanged => ({
    type: 'channel_changed',
    channelId,
    change,
    ...(userId ? { userId } : {}),
  });
  switch (event.type) {
    case 'member_added':
    case 'member_muted': {
      const update: MemberUpdate = { type: 'member_update', channelId, member: event.member };
      const message = changed(event.type, event.member.userId);
      await bus.publish(channelTopic(channelId), update);
      await bus.publish(channelTopic(channelId), message);
      // The muted member is told who muted them (and that they are unmuted) on all their devices.
      const own = event.type === 'member_muted' ? await withMuter(db, message, event) : message;
      await bus.publish(userTopic(event.member.userId), own);
      return;
    }
    case 'member_removed': {
      const message = changed('member_removed', event.userId);
      await bus.publish(channelTopic(channelId), message);
      await bus.publish(userTopic(event.userId), message);
      return;
    }
    case 'channel_deleted': {
      const message = changed('channel_deleted');
      await bus.publish(channelTopic(channelId), message);
      for (const userId of event.memberIds) await bus.publish(userTopic(userId), message);
      return;
    }
    case 'talk_mode_changed':
    case 'transmissions_changed':
      await bus.publish(channelTopic(channelId), changed(event.type));
      return;
    case 'sos_changed': {
      const message = changed('sos_changed');
      await bus.publish(channelTopic(channelId), message);
      for (const userId of event.memberIds) await bus.publish(userTopic(userId), message);
      return;
    }
    case 'poke': {
      const [from] = await db.select().from(users).where(eq(users.id, event.from)).limit(1);
      if (!from) return;
      const poke: PokeMessage = { type: 'poke', channelId, from: { id: from.id, name: displayName(from) } };
      await bus.publish(userTopic(event.to), poke);
      return;
    }
  }
}
