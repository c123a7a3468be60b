import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { pushTapUrl } from '../../../protocol/push.js';
import { displayName } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { channels } from '../db/schema.js';
import { findUserById } from '../users/user-directory.js';
import type { PushNotifier } from './push-notifier.js';
import { clip, pushTag, pushTopic } from './push-texts.js';

/** What channel actions tell the people they are about. */
export interface ChannelPushes {
  /** `fromId` poked `toId` in the channel (after the poke was allowed). */
  poked(channelId: number, fromId: string, toId: string): void;
  /** A channel admin added `userId` to the channel. */
  added(channelId: number, byId: string, userId: string): void;
}

/** The channel's name, and whether it is a one-to-one conversation; null when it is gone. */
async function channelOf(db: Database, channelId: number): Promise<{ name: string; direct: boolean } | null> {
  const [row] = await db.select({ name: channels.name, kind: channels.kind }).from(channels).where(eq(channels.id, channelId)).limit(1);
  return row ? { name: row.name, direct: row.kind === 'direct' } : null;
}

async function nameOf(db: Database, userId: string): Promise<string | null> {
  const user = await findUserById(db, userId);
  return user ? displayName(user) : null;
}

/**
 * Pokes ("<name> poked you in <channel>": preference "pokes", and the member's Notify me in that
 * channel) and being added by an admin ("<name> added you to <channel>": preference "channelAdds").
 * Each happens once, on the instance that took the request, so its key is made up here.
 */
export function channelPushes(notifier: Pick<PushNotifier, 'notify'>, db: Database): ChannelPushes {
  return {
    poked(channelId, fromId, toId) {
      const tag = pushTag('poke', channelId);
      notifier.notify([toId], {
        key: `poke:${randomUUID()}`,
        preference: 'pokes',
        actorId: fromId,
        notifyChannelId: channelId,
        delivery: { ttlSeconds: 3600, urgency: 'normal', topic: pushTopic(tag) },
        payload: async () => {
          const [name, channel] = await Promise.all([nameOf(db, fromId), channelOf(db, channelId)]);
          if (name === null || channel === null) return null;
          // A one-to-one conversation has no name of its own: it is the poker's.
          const title = channel.direct ? `${name} poked you` : `${name} poked you in ${channel.name}`;
          return { kind: 'poke', title: clip(title, 200), body: '', tag, url: pushTapUrl.channel(channelId) };
        },
      });
    },
    added(channelId, byId, userId) {
      const tag = pushTag('channel', channelId);
      notifier.notify([userId], {
        key: `channel-add:${randomUUID()}`,
        preference: 'channelAdds',
        actorId: byId,
        delivery: { ttlSeconds: 24 * 3600, urgency: 'normal', topic: pushTopic(tag) },
        payload: async () => {
          const [name, channel] = await Promise.all([nameOf(db, byId), channelOf(db, channelId)]);
          if (name === null || channel === null) return null;
          const title = clip(`${name} added you to ${channel.name}`, 200);
          return { kind: 'channel-add', title, body: '', tag, url: pushTapUrl.channel(channelId) };
        },
      });
    },
  };
}
