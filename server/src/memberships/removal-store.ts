import { and, eq } from 'drizzle-orm';
import { channelRemovals } from '../db/schema.js';
import type { Queryable } from '../db/database.js';

/** Remembers a removal by someone else (not a leave), so that no door but an admin's undoes it. */
export async function recordRemoval(
  db: Queryable,
  channelId: number,
  userId: string,
  at = new Date(),
): Promise<void> {
  await db
    .insert(channelRemovals)
    .values({ channelId, userId, removedAt: at })
    .onConflictDoUpdate({
      target: [channelRemovals.channelId, channelRemovals.userId],
      set: { removedAt: at },
    });
}

/** When `userId` was last removed from the channel and has not been let back in since; null if never. */
export async function standingRemoval(
  db: Queryable,
  channelId: number,
  userId: string,
): Promise<Date | null> {
  const [removal] = await db
    .select({ removedAt: channelRemovals.removedAt })
    .from(channelRemovals)
    .where(and(eq(channelRemovals.channelId, channelId), eq(channelRemovals.userId, userId)))
    .limit(1);
  return removal?.removedAt ?? null;
}

/** The removal no longer stands: an admin added them again, or they redeemed a newer invite. */
export async function clearRemoval(
  db: Queryable,
  channelId: number,
  userId: string,
): Promise<void> {
  await db
    .delete(channelRemovals)
    .where(and(eq(channelRemovals.channelId, channelId), eq(channelRemovals.userId, userId)));
}
