import { lt } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { pushDeliveries } from '../db/schema.js';

/** Long enough that no instance still sees an event this old; the housekeeping sweeps older claims. */
export const PUSH_DELIVERY_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * Claims the push of one event to one device: true for the one caller (on whichever instance) whose
 * insert landed, false for every other. Claimed before sending, so a device gets at most one push
 * per event.
 */
export async function claimDelivery(db: Database, eventKey: string, subscriptionId: number): Promise<boolean> {
  const inserted = await db
    .insert(pushDeliveries)
    .values({ eventKey, subscriptionId })
    .onConflictDoNothing()
    .returning({ subscriptionId: pushDeliveries.subscriptionId });
  return inserted.length > 0;
}

/** Forgets claims older than `PUSH_DELIVERY_KEEP_MS`. */
export async function deleteOldDeliveries(db: Database, now = new Date()): Promise<void> {
  await db.delete(pushDeliveries).where(lt(pushDeliveries.sentAt, new Date(now.getTime() - PUSH_DELIVERY_KEEP_MS)));
}
