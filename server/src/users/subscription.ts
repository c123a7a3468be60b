import { and, eq, ne } from 'drizzle-orm';
import type { SubscriptionTier, User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { tierAfterChange } from './tier-change.js';
import { findUserById } from './user-directory.js';

/** Sets a user's tier; an ignored change (spec §5) writes nothing and returns the user as is. */
export async function changeSubscription(
  db: Database,
  userId: string,
  requested: Exclude<SubscriptionTier, 'superadmin'>,
): Promise<User> {
  const target = await findUserById(db, userId);
  if (!target) throw notFound('User not found');
  const tier = tierAfterChange(target.subscriptionTier, requested);
  if (tier === target.subscriptionTier) return target;
  // The tier condition keeps a concurrent promotion to superadmin (at sign-in) from being undone.
  await db
    .update(users)
    .set({ subscriptionTier: tier, updatedAt: new Date() })
    .where(and(eq(users.id, userId), ne(users.subscriptionTier, 'superadmin')));
  return { ...target, subscriptionTier: tier };
}
