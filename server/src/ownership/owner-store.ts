import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { ownerSetupCodes, users } from '../db/schema.js';
import { hashSetupCode, sameHash } from './setup-code.js';

// Serialises claims (and code minting) so two correct claims at once cannot both succeed.
const OWNERSHIP_LOCK = 7_301_002;

type Executor = Pick<Database, 'select'>;

export async function hasOwner(db: Executor): Promise<boolean> {
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.subscriptionTier, 'superadmin'))
    .limit(1);
  return owner !== undefined;
}

/**
 * Stores a new code (hashed) unless the server has an owner; answers whether it was stored. It
 * replaces every earlier code: only the code printed last (by whichever instance started last)
 * claims the server, so a code left in an old log or file is worth nothing.
 */
export async function storeSetupCode(db: Database, code: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${OWNERSHIP_LOCK})`);
    await tx.delete(ownerSetupCodes);
    if (await hasOwner(tx)) return false;
    await tx.insert(ownerSetupCodes).values({ codeHash: hashSetupCode(code) });
    return true;
  });
}

export async function forgetSetupCodes(db: Database): Promise<void> {
  await db.delete(ownerSetupCodes);
}

export type ClaimOutcome = 'claimed' | 'wrong-code' | 'already-owned';

/**
 * Makes `userId` the superadmin if `code` matches a stored setup code and nobody owns the server
 * yet; every code is then deleted (single use). Compared in constant time against each stored hash.
 */
export async function claimOwnership(db: Database, userId: string, code: string): Promise<ClaimOutcome> {
  const offered = hashSetupCode(code);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${OWNERSHIP_LOCK})`);
    if (await hasOwner(tx)) return 'already-owned';
    const stored = await tx.select({ codeHash: ownerSetupCodes.codeHash }).from(ownerSetupCodes);
    // Every hash is compared, so the time taken does not tell which (or whether one) matched.
    const matches = stored.map((row) => sameHash(row.codeHash, offered)).includes(true);
    if (!matches) return 'wrong-code';
    await tx
      .update(users)
      .set({ subscriptionTier: 'superadmin', updatedAt: new Date() })
      .where(eq(users.id, userId));
    await tx.delete(ownerSetupCodes);
    return 'claimed';
  });
}
