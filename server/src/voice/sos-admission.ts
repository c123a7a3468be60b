import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { sosAlerts } from '../db/schema.js';

/** How long after an SOS's talk time its sender may still (re)connect over the allowance. */
export const SOS_ADMISSION_GRACE_MS = 60_000;

/**
 * Whether the user has an SOS on the air in the channel (decision 050): an unresolved alert of
 * theirs there whose talk time ended less than a minute ago, or has not ended. Such a sender is let
 * into the channel's voice even over the free allowance (and metered as usual), at every door.
 */
export async function hasLiveSos(db: Database, userId: string, channelId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: sosAlerts.id })
    .from(sosAlerts)
    .where(
      and(
        eq(sosAlerts.senderId, userId),
        eq(sosAlerts.channelId, channelId),
        isNull(sosAlerts.resolvedAt),
        gt(sosAlerts.talkUntil, new Date(Date.now() - SOS_ADMISSION_GRACE_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}
