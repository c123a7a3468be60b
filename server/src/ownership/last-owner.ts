import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { hasOwner, storeSetupCode } from './owner-store.js';
import { newSetupCode } from './setup-code.js';

/**
 * Whether `userId` is the server's only superadmin. Deleting such an account, or taking the role
 * away, would leave the server without an owner — and an invite-only server open to sign-ups and
 * claimable only with a code printed at the next start — so it is refused (decision 012).
 */
export async function isOnlyOwner(db: Database, userId: string): Promise<boolean> {
  const owners = await db.select({ id: users.id }).from(users).where(eq(users.subscriptionTier, 'superadmin')).limit(2);
  return owners.length === 1 && owners[0]!.id === userId;
}

/**
 * After a superadmin was deleted or demoted outside the server (the admin command): if no owner is
 * left after all (two at once), a new setup code at once, for the operator to print.
 */
export async function setupCodeIfOwnerless(db: Database): Promise<string | null> {
  if (await hasOwner(db)) return null;
  const code = newSetupCode();
  return (await storeSetupCode(db, code)) ? code : null;
}
