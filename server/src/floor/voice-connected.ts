import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { usageSessions } from '../db/schema.js';

/**
 * Whether the user has a voice connection in the channel now, on whichever provider and instance:
 * the voice server itself opens a usage row when a connection joins and closes it when it leaves
 * (the built-in SFU's events, LiveKit's webhooks; decision 017). A row the client opened itself
 * names no voice connection and does not count.
 */
export async function isConnectedToChannelVoice(
  db: Database,
  userId: string,
  channelId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: usageSessions.id })
    .from(usageSessions)
    .where(
      and(
        eq(usageSessions.userId, userId),
        eq(usageSessions.channelId, channelId),
        isNull(usageSessions.endedAt),
        isNotNull(usageSessions.voiceConnection),
      ),
    )
    .limit(1);
  return row !== undefined;
}
