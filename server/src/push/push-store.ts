import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import { PUSH_SUBSCRIPTIONS_PER_USER } from '../../../protocol/push.js';
import type { Database } from '../db/database.js';
import { pushSubscriptions } from '../db/schema.js';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export interface NewPushSubscription {
  userId: string;
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Saves a device's subscription for the signed-in user and session. An endpoint belongs to one
 * browser profile, so subscribing again (new keys, another account signed in there) takes the row
 * over. Beyond the per-user cap, the least recently used of that user's devices make room.
 */
export async function saveSubscription(db: Database, subscription: NewPushSubscription): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values(subscription)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId: subscription.userId,
          sessionId: subscription.sessionId,
          p256dh: subscription.p256dh,
          auth: subscription.auth,
          createdAt: sql`now()`,
          lastUsedAt: sql`now()`,
        },
      });
    const kept = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, subscription.userId))
      .orderBy(sql`${pushSubscriptions.lastUsedAt} desc`, sql`${pushSubscriptions.id} desc`)
      .limit(PUSH_SUBSCRIPTIONS_PER_USER);
    await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, subscription.userId), notInArray(pushSubscriptions.id, kept)));
  });
}

/** Removes one of the user's devices; false when that endpoint was not theirs. */
export async function removeSubscription(db: Database, userId: string, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

/** The user's subscription at this endpoint, or null. */
export async function findSubscription(db: Database, userId: string, endpoint: string): Promise<PushSubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  return row ?? null;
}

/** Every device the user has notifications on, oldest first. */
export async function subscriptionsOf(db: Database, userId: string): Promise<PushSubscriptionRow[]> {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(asc(pushSubscriptions.id));
}

/** A push service said this subscription is gone (404/410): it never comes back. */
export async function deleteSubscriptionById(db: Database, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** The push service accepted a message for this device. */
export async function markSubscriptionUsed(db: Database, id: number): Promise<void> {
  await db.update(pushSubscriptions).set({ lastUsedAt: sql`now()` }).where(eq(pushSubscriptions.id, id));
}
